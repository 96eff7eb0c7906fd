import { join } from 'node:path';
import { writeCacheFile } from '../platform/cache-file.js';
import { readOwnFile } from '../platform/own-file.js';
import { BUILD_ID } from '../platform/version.js';
import { cacheDir } from '../platform/xdg-paths.js';
import type { Config } from './schema.js';

/**
 * Where a parsed config file is kept, and for which build. Loading the YAML parser and the
 * validator to check a file that has not changed since the last start cost time at every start
 * (the first frame and a one-shot's first byte); the config a text gives depends on nothing else.
 */
export interface ConfigCache {
  file: string;
  buildId: string;
}

/** The cache of this build: `config.json` in ochat's cache directory; none when run from source. */
export function buildConfigCache(env: NodeJS.ProcessEnv): ConfigCache | undefined {
  return BUILD_ID ? { file: join(cacheDir(env), 'config.json'), buildId: BUILD_ID } : undefined;
}

interface CacheEntry {
  buildId: string;
  path: string;
  text: string;
  config: Config;
}

/**
 * JSON has no `undefined`, and a key the parse set to undefined is not the same as no key (a
 * spread over the defaults tells them apart): such a value is kept as this, which no config holds
 * (its key is a NUL character).
 */
const UNDEFINED_MARK = { '\u0000': 'undefined' };

function isUndefinedMark(value: object): boolean {
  const keys = Object.keys(value);
  return keys.length === 1 && (value as Record<string, unknown>)['\u0000'] === 'undefined';
}

/** Puts back the undefined values {@link UNDEFINED_MARK} stands for, in place. */
function withUndefined(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (isUndefinedMark(value)) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) record[key] = withUndefined(record[key]);
  return value;
}

/** The cache holds a config file (at most MAX_CONFIG_BYTES) twice over, as text and parsed. */
const MAX_CACHE_BYTES = 4 * 1024 * 1024;

/** The config parsed from exactly this text of this file by this build, if it was kept. */
export function cachedConfig(cache: ConfigCache, path: string, text: string): Config | undefined {
  try {
    // A FIFO or a device in its place must not hang the start, nor a huge file fill the memory.
    const read = readOwnFile(cache.file, MAX_CACHE_BYTES);
    if (read.kind !== 'ok') return undefined; // the next keepConfig replaces it
    const entry = JSON.parse(read.bytes.toString('utf8')) as Partial<CacheEntry>;
    const hit = entry.buildId === cache.buildId && entry.path === path && entry.text === text;
    return hit ? (withUndefined(entry.config) as Config) : undefined;
  } catch {
    return undefined; // none yet, or unreadable: parse the file
  }
}

/** Keeps a config parsed without errors; best effort (written whole, then renamed into place). */
export function keepConfig(cache: ConfigCache, path: string, text: string, config: Config): void {
  const entry: CacheEntry = { buildId: cache.buildId, path, text, config };
  try {
    const json = JSON.stringify(entry, (_key, value: unknown) =>
      value === undefined ? UNDEFINED_MARK : value,
    );
    writeCacheFile(cache.file, json);
  } catch {
    // A cache: without it the next start parses the file again.
  }
}
