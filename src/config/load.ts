import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { errnoCode, fileErrorReason } from '../platform/errno.js';
import { displayPath } from '../platform/xdg-paths.js';
import { ConfigError } from './config-error.js';
import { DEFAULT_CONFIG } from './defaults.js';
import { type ConfigCache, cachedConfig, keepConfig } from './parsed-config-cache.js';
import type { Config } from './schema.js';

const NOT_REGULAR = 'is not a regular file (a FIFO, socket or device)';

/** Why a config file could not be read, in the user's terms. */
function readFailure(error: unknown): string {
  const code = errnoCode(error);
  if (code === 'EISDIR') return 'is a directory, not a config file';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  // A socket cannot even be opened: refused as a FIFO or a device is, once opened.
  if (code === 'ENXIO') return NOT_REGULAR;
  return `cannot be read (${fileErrorReason(error)})`;
}

/** A config file is a few kB; anything near this is not one (and reading it whole would cost). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Reads a regular file of at most {@link MAX_CONFIG_BYTES}. Opened without blocking and checked
 * on the open descriptor, so a FIFO or a device (`/dev/zero`) is refused instead of hanging.
 */
function readRegularFile(path: string, shown: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    if (!stats.isFile()) {
      throw new ConfigError(shown, [{ message: NOT_REGULAR }]);
    }
    if (stats.size > MAX_CONFIG_BYTES) {
      const size = (stats.size / (1024 * 1024)).toFixed(1);
      throw new ConfigError(shown, [{ message: `is too large (${size} MB; a config file is at most 1 MB)` }]);
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The file's text; undefined for a missing file the user did not name (then defaults apply). */
function readConfigText(path: string, shown: string, explicit: boolean): string | undefined {
  try {
    return readRegularFile(path, shown);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = errnoCode(error);
    const missing = code === 'ENOENT' || code === 'ENOTDIR';
    if (missing && !explicit) return undefined;
    throw new ConfigError(shown, [{ message: missing ? 'file not found' : readFailure(error) }]);
  }
}

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** The user named this file (`-c`, `$OCHAT_CONFIG`): then it must exist. */
  explicit: boolean;
  /** For showing the path with `~` in errors; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Where the parsed file is kept between starts; none: parsed every time. */
  cache?: ConfigCache;
}

/**
 * Loads and validates the YAML config at `path`. A missing default file or an empty file
 * gives the defaults. Anything wrong throws a {@link ConfigError} whose message has one
 * `file:line:col: key: problem` line per issue (YAML syntax errors: the first one only, as
 * later ones are usually its echoes).
 */
export async function loadConfig(
  path: string,
  { explicit, env = process.env, cache }: LoadConfigOptions,
): Promise<Config> {
  const shown = displayPath(path, env);
  const text = readConfigText(path, shown, explicit);
  if (text === undefined) return structuredClone(DEFAULT_CONFIG) as Config;
  const kept = cache && cachedConfig(cache, path, text);
  if (kept) return kept;
  // The YAML parser and the validator load only when there is a file to check (start-up time).
  const { parseConfigText } = await import('./parse-config.js');
  const config = parseConfigText(text, shown);
  if (cache) keepConfig(cache, path, text, config);
  return config;
}
