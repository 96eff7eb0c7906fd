import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type * as Vm from 'node:vm';
import { writeCacheFile } from './cache-file.js';
import { nodeBuiltin } from './node-builtin.js';
import { readOwnFile } from './own-file.js';
import { BUILD_ID } from './version.js';
import { cacheDir } from './xdg-paths.js';

// The build's whole CommonJS modules (dist/lazy/*.cjs: the one-shot, the config file's parser,
// commander) are compiled from a V8 code cache written at the end of the run that first loaded
// them, so it holds every function that run compiled, not only the top level: Node 20 has no
// compile cache, and Node 22's (module.enableCompileCache) is written before the code runs.
// Compiling one-shot.cjs and what a one-shot calls was a visible part of the time to its first byte.
//
// Code compiled by vm.Script cannot import(): a whole module must have no dynamic import (the
// build checks it); the entry calls `importLazy` instead, the import() of its caller
// (src/modes/start.ts). The wrapper below is CommonJS's own with that one more parameter, its
// first line taken off the line count.
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname, importLazy) {\n';
const WRAPPER_TAIL = '\n})';

/** A CommonJS file run with a code cache. */
export interface CachedModule {
  exports: unknown;
  /** V8 compiled it from the cache; false when there was none, or one V8 refused (another build of Node). */
  fromCache: boolean;
  /** Writes the cache from all the code compiled so far; best effort. */
  keep(): void;
}

/** A code cache is a few MB (the size of the code it holds); one larger is not ours. */
const MAX_CODE_CACHE_BYTES = 64 * 1024 * 1024;

/** How a file runs from its code cache. */
export interface CodeCacheOptions {
  /**
   * As a module of require.cache, so that a later require() of the file gets this run's exports
   * (dist/ochat.cjs, which the lazy modules require): one copy of its state.
   */
  register?: boolean;
  /** The import() the file's code calls as `importLazy` (dist/ochat.cjs's of dist/lazy/). */
  importLazy?: (specifier: string) => Promise<unknown>;
}

/** Runs CommonJS `file` as require() would, compiled from `cacheFile` when that holds its code. */
export function runWithCodeCache(
  file: string,
  cacheFile: string,
  { register = false, importLazy }: CodeCacheOptions = {},
): CachedModule {
  const { Script } = nodeBuiltin<typeof Vm>('node:vm');
  let cachedData: Buffer | undefined;
  try {
    // Never blocking, never huge: a FIFO or /dev/zero in its place is passed over (and replaced on keep).
    const read = readOwnFile(cacheFile, MAX_CODE_CACHE_BYTES);
    if (read.kind === 'ok') cachedData = read.bytes;
  } catch {
    // None yet: compile, and keep.
  }
  const source = readFileSync(file, 'utf8');
  const script = new Script(`${WRAPPER_HEAD}${source}${WRAPPER_TAIL}`, {
    filename: file,
    lineOffset: -1,
    cachedData,
  });
  const require = createRequire(file);
  const module = register ? registeredModule(file, require) : { exports: {} as unknown, loaded: false };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, require, module, file, dirname(file), importLazy);
  module.loaded = true;
  return {
    exports: module.exports,
    fromCache: cachedData !== undefined && !script.cachedDataRejected,
    keep: () => keepCodeCache(cacheFile, script.createCachedData()),
  };
}

/** A module for `file` in require.cache, as require() makes one before running the file. */
function registeredModule(file: string, require: NodeJS.Require): { exports: unknown; loaded: boolean } {
  const module = new Module(file);
  module.filename = file;
  require.cache[file] = module;
  return module;
}

/** How long a cache of another build is kept: two builds used side by side (a checkout, an install) keep theirs. */
const OTHER_BUILD_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Writes a cache whole, then renames it into place; removes the file's caches of other builds
 * not written for a week (those of other Node versions stay: a user may switch between them).
 */
function keepCodeCache(cacheFile: string, data: Buffer): void {
  const dir = dirname(cacheFile);
  try {
    writeCacheFile(cacheFile, data);
    const [name, build] = basename(cacheFile).split('.');
    const before = Date.now() - OTHER_BUILD_KEPT_MS;
    for (const other of readdirSync(dir)) {
      const [otherName, otherBuild] = other.split('.');
      if (otherName !== name || otherBuild === build || !other.endsWith('.bin')) continue;
      const path = join(dir, other);
      if (statSync(path).mtimeMs < before) rmSync(path, { force: true });
    }
  } catch {
    // A cache: without it the next run compiles the file again.
  }
}

/** Where the code cache of whole module `file` is kept: per build, Node version and machine type. */
export function codeCacheFile(file: string, env: NodeJS.ProcessEnv): string {
  const name = basename(file, '.cjs');
  return join(cacheDir(env), 'code', `${name}.${BUILD_ID ?? 'dev'}.${process.version}-${process.arch}.bin`);
}

/**
 * The build's whole module `file` (what `load` requires), from its code cache; a run that had to
 * compile it writes the cache as it exits, with all it compiled by then.
 */
export function requireWhole(
  file: string,
  load: () => unknown,
  env = process.env,
  options: CodeCacheOptions = {},
): unknown {
  if (!BUILD_ID) return load();
  const loaded = runWithCodeCache(file, codeCacheFile(file, env), options);
  if (!loaded.fromCache) process.once('exit', loaded.keep);
  return loaded.exports;
}
