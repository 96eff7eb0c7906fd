import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.js';
import { DEFAULT_CONFIG } from './defaults.js';
import { displayPath } from './paths.js';
import type { Config } from './schema.js';

/** Why a config file could not be read, in the user's terms. */
function readFailure(error: NodeJS.ErrnoException): string {
  if (error.code === 'EISDIR') return 'is a directory, not a config file';
  if (error.code === 'EACCES' || error.code === 'EPERM') return 'cannot be read (permission denied)';
  return `cannot be read (${error.message})`;
}

/** The file's text; undefined for a missing file the user did not name (then defaults apply). */
function readConfigText(path: string, shown: string, explicit: boolean): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    const missing = failure.code === 'ENOENT' || failure.code === 'ENOTDIR';
    if (missing && !explicit) return undefined;
    throw new ConfigError(shown, [{ message: missing ? 'file not found' : readFailure(failure) }]);
  }
}

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** The user named this file (`-c`, `$OCHAT_CONFIG`): then it must exist. */
  explicit: boolean;
  /** For showing the path with `~` in errors; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Loads and validates the YAML config at `path`. A missing default file or an empty file
 * gives the defaults. Anything wrong throws a {@link ConfigError} whose message has one
 * `file:line:col: key: problem` line per issue (YAML syntax errors: the first one only, as
 * later ones are usually its echoes).
 */
export async function loadConfig(
  path: string,
  { explicit, env = process.env }: LoadConfigOptions,
): Promise<Config> {
  const shown = displayPath(path, env);
  const text = readConfigText(path, shown, explicit);
  if (text === undefined) return structuredClone(DEFAULT_CONFIG) as Config;
  // The YAML parser and the validator load only when there is a file to check (start-up time).
  const { parseConfigText } = await import('./parse-config.js');
  return parseConfigText(text, shown);
}
