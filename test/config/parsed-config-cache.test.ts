import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load.js';
import { parseConfigText } from '../../src/config/parse-config.js';
import { type ConfigCache, cachedConfig, keepConfig } from '../../src/config/parsed-config-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'ochat-config-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const fresh = (): ConfigCache => ({ file: join(dir, `cache-${++count}`, 'config.json'), buildId: 'build-a' });
const EXAMPLE = readFileSync(resolve(import.meta.dirname, '../../config.example.yml'), 'utf8');
const SOME_CONFIG =
  'model: qwen3\noptions:\n  temperature: 0.5\n  stop: ["###"]\ncompaction:\n  auto: false\n';

describe('the parsed config cache', () => {
  it('gives back a kept config exactly, for the same build, path and text only', () => {
    const cache = fresh();
    for (const text of [EXAMPLE, SOME_CONFIG]) {
      const config = parseConfigText(text, 'config.yml');
      keepConfig(cache, '/home/u/config.yml', text, config);
      // Strict: the JSON round trip keeps every value and adds or drops no key.
      expect(cachedConfig(cache, '/home/u/config.yml', text)).toStrictEqual(config);
    }
    expect(statSync(cache.file).mode & 0o777).toBe(0o600); // readable only by its owner
    expect(cachedConfig(cache, '/home/u/config.yml', `${SOME_CONFIG}\n`)).toBeUndefined();
    expect(cachedConfig(cache, '/home/u/other.yml', SOME_CONFIG)).toBeUndefined();
    expect(cachedConfig({ ...cache, buildId: 'build-b' }, '/home/u/config.yml', SOME_CONFIG)).toBeUndefined();
  });

  it('misses, without throwing, when nothing was kept or the file is not one of its own', () => {
    const cache = fresh();
    expect(cachedConfig(cache, '/c.yml', SOME_CONFIG)).toBeUndefined();
    keepConfig(cache, '/c.yml', SOME_CONFIG, parseConfigText(SOME_CONFIG, 'c.yml'));
    writeFileSync(cache.file, '{"buildId": "build-a", "path": "/c.yml"'); // cut short
    expect(cachedConfig(cache, '/c.yml', SOME_CONFIG)).toBeUndefined();
  });

  it('keeps nothing, and throws nothing, where it cannot write', () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const cache = { file: join(blocker, 'config.json'), buildId: 'build-a' };
    expect(() =>
      keepConfig(cache, '/c.yml', SOME_CONFIG, parseConfigText(SOME_CONFIG, 'c.yml')),
    ).not.toThrow();
    expect(cachedConfig(cache, '/c.yml', SOME_CONFIG)).toBeUndefined();
  });
});

describe('loadConfig with a cache', () => {
  it('reads an unchanged file from the cache and parses a changed one again', async () => {
    const cache = fresh();
    const path = join(dir, `config-${++count}.yml`);
    writeFileSync(path, 'model: a\n');
    expect((await loadConfig(path, { explicit: true, cache })).model).toBe('a');
    // Proof that the next load reads the cache: what it holds is what comes back.
    const entry = JSON.parse(readFileSync(cache.file, 'utf8'));
    writeFileSync(cache.file, JSON.stringify({ ...entry, config: { ...entry.config, model: 'kept' } }));
    expect((await loadConfig(path, { explicit: true, cache })).model).toBe('kept');
    writeFileSync(path, 'model: b\n');
    expect((await loadConfig(path, { explicit: true, cache })).model).toBe('b');
  });

  it('keeps no config that failed: the error comes back on every start', async () => {
    const cache = fresh();
    const path = join(dir, `config-${++count}.yml`);
    writeFileSync(path, 'modle: a\n');
    for (let start = 0; start < 2; start++) {
      await expect(loadConfig(path, { explicit: true, cache })).rejects.toBeInstanceOf(ConfigError);
    }
    expect(() => readFileSync(cache.file)).toThrow();
  });

  it('gives each load its own object: a caller may change it', async () => {
    const cache = fresh();
    const path = join(dir, `config-${++count}.yml`);
    writeFileSync(path, SOME_CONFIG);
    await loadConfig(path, { explicit: true, cache });
    const first = await loadConfig(path, { explicit: true, cache });
    first.options.temperature = 2;
    expect((await loadConfig(path, { explicit: true, cache })).options.temperature).toBe(0.5);
  });
});
