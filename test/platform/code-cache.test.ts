import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheFile, requireWhole, runWithCodeCache } from '../../src/platform/code-cache.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ochat-code-cache-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A CommonJS module like the build's whole modules: it requires a sibling, and exports functions. */
function writeModule(): string {
  writeFileSync(join(dir, 'sibling.cjs'), 'module.exports = { answer: 42 };\n');
  const file = join(dir, 'whole.cjs');
  writeFileSync(
    file,
    [
      '"use strict";',
      'const { answer } = require("./sibling.cjs");',
      'exports.where = () => ({ filename: __filename, dirname: __dirname, self: this === exports });',
      'exports.answer = () => answer;',
      'exports.fail = () => { throw new Error("on line 5"); };',
    ].join('\n'),
  );
  return file;
}

interface Whole {
  where(): { filename: string; dirname: string; self: boolean };
  answer(): number;
  fail(): never;
}

describe('runWithCodeCache', () => {
  it('runs the file as require() would: its require, __filename, __dirname, exports as `this`, line numbers', () => {
    const file = writeModule();
    const loaded = runWithCodeCache(file, join(dir, 'cache.bin'));
    const whole = loaded.exports as Whole;
    expect(whole.answer()).toBe(42);
    expect(whole.where()).toEqual({ filename: file, dirname: dir, self: true });
    expect(() => whole.fail()).toThrow('on line 5');
    try {
      whole.fail();
    } catch (error) {
      expect((error as Error).stack).toContain(`${file}:5:`);
    }
  });

  it('compiles without a cache, keeps one on request (owner-only), and the next run takes its code from it', () => {
    const file = writeModule();
    const cacheFile = join(dir, 'cache', 'whole.bin');
    const first = runWithCodeCache(file, cacheFile);
    expect(first.fromCache).toBe(false);
    (first.exports as Whole).answer();
    first.keep();
    expect(statSync(cacheFile).size).toBeGreaterThan(0);
    expect(statSync(cacheFile).mode & 0o777).toBe(0o600);

    const second = runWithCodeCache(file, cacheFile);
    expect(second.fromCache).toBe(true);
    expect((second.exports as Whole).answer()).toBe(42);
  });

  it('registered, it is the module a later require() of the file gets; its code imports through the importLazy given, from the cache too', async () => {
    const file = join(dir, 'entry.cjs');
    writeFileSync(file, 'exports.count = 0;\nexports.load = () => importLazy("./lazy.mjs");\n');
    writeFileSync(join(dir, 'lazy.mjs'), 'export const lazy = "loaded";\n');
    const cacheFile = join(dir, 'entry.bin');
    const importLazy = (specifier: string) => import(join(dir, specifier));
    const first = runWithCodeCache(file, cacheFile, { register: true, importLazy });
    const required = createRequire(file)(file);
    expect(required).toBe(first.exports);
    await expect(required.load()).resolves.toMatchObject({ lazy: 'loaded' });
    first.keep();
    delete createRequire(file).cache[file];

    const second = runWithCodeCache(file, cacheFile, { register: true, importLazy });
    expect(second.fromCache).toBe(true);
    expect(createRequire(file)(file)).toBe(second.exports);
    await expect((second.exports as typeof required).load()).resolves.toMatchObject({ lazy: 'loaded' });
  });

  it('a damaged cache is refused, the file compiled, and a new cache can replace it', () => {
    const file = writeModule();
    const cacheFile = join(dir, 'whole.dev.v20.0.0-x64.bin');
    writeFileSync(cacheFile, 'not a code cache');
    const loaded = runWithCodeCache(file, cacheFile);
    expect(loaded.fromCache).toBe(false);
    expect((loaded.exports as Whole).answer()).toBe(42);
    loaded.keep();
    expect(runWithCodeCache(file, cacheFile).fromCache).toBe(true);
  });

  it("keeping a cache removes the same file's caches of other builds unwritten for a week, not other files' nor other Node versions'", () => {
    const file = writeModule();
    const cacheDir = join(dir, 'code');
    const cacheFile = join(cacheDir, 'whole.bbbb.v20.0.0-x64.bin');
    const stale = ['whole.aaaa.v20.0.0-x64.bin', 'whole.aaaa.v22.0.0-x64.bin'];
    const recent = 'whole.cccc.v20.0.0-x64.bin';
    const kept = ['whole.bbbb.v22.0.0-x64.bin', 'other.aaaa.v20.0.0-x64.bin', 'whole.aaaa.notes.txt', recent];
    mkdirSync(cacheDir);
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    for (const name of [...stale, ...kept]) {
      writeFileSync(join(cacheDir, name), 'x');
      if (name !== recent) utimesSync(join(cacheDir, name), eightDaysAgo, eightDaysAgo);
    }
    runWithCodeCache(file, cacheFile).keep();
    expect(readdirSync(cacheDir).sort()).toEqual([...kept, 'whole.bbbb.v20.0.0-x64.bin'].sort());
  });

  it('an unwritable cache directory costs nothing but the cache', () => {
    const file = writeModule();
    const blocker = join(dir, 'blocker');
    writeFileSync(blocker, 'a file where the directory would be');
    const loaded = runWithCodeCache(file, join(blocker, 'whole.bin'));
    expect(() => loaded.keep()).not.toThrow();
    expect(readFileSync(blocker, 'utf8')).toBe('a file where the directory would be');
  });
});

describe('codeCacheFile', () => {
  it("is in ochat's cache directory, named by the file, the build, the Node version and the machine type", () => {
    const path = codeCacheFile('/x/dist/lazy/one-shot.cjs', { HOME: '/home/u', XDG_CACHE_HOME: '/c' });
    expect(path).toBe(`/c/ochat/code/one-shot.dev.${process.version}-${process.arch}.bin`);
  });
});

describe('requireWhole', () => {
  it('from source (no build): plain require, nothing kept', () => {
    const file = writeModule();
    const env = { HOME: dir, XDG_CACHE_HOME: join(dir, 'cache') };
    expect(requireWhole(file, () => ({ plain: true }), env)).toEqual({ plain: true });
    expect(readdirSync(dir)).not.toContain('cache');
  });
});
