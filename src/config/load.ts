import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { ConfigError } from './config-error.js';
import { displayPath } from './paths.js';
import { type Config, configSchema } from './schema.js';
import { configIssuesFrom } from './schema-issues.js';

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

/** yaml's message, except that a repeated key is named (yaml only points at it). */
function syntaxMessage(error: YAMLError, text: string): string {
  const key = /^["']?([^"':\n]+)/.exec(text.slice(error.pos[0]))?.[1];
  if (error.code === 'DUPLICATE_KEY' && key) return `duplicate key "${key.trim()}"`;
  return `invalid YAML: ${error.message}`;
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
export function loadConfig(path: string, { explicit, env = process.env }: LoadConfigOptions): Config {
  const shown = displayPath(path, env);
  const text = readConfigText(path, shown, explicit);
  if (text === undefined) return configSchema.parse({});
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntaxError = doc.errors[0];
  if (syntaxError) {
    const { line, col } = lines.linePos(syntaxError.pos[0]);
    throw new ConfigError(shown, [{ line, column: col, message: syntaxMessage(syntaxError, text) }]);
  }
  let data: unknown;
  try {
    data = doc.toJS() ?? {};
  } catch (error) {
    // e.g. more aliases than yaml allows (its defence against "billion laughs" files).
    throw new ConfigError(shown, [{ message: `invalid YAML: ${(error as Error).message}` }]);
  }
  const result = configSchema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  throw new ConfigError(shown, configIssuesFrom(result.error.issues, { doc, lines, schema: configSchema }));
}
