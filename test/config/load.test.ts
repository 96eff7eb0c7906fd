import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { loadConfig } from '../../src/config/load.js';
import { parseConfigText } from '../../src/config/parse-config.js';

const dir = mkdtempSync(join(tmpdir(), 'ochat-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileCount = 0;

/** Writes `text` to a fresh config file and returns its path. */
function configFile(text: string): string {
  const path = join(dir, `config-${++fileCount}.yml`);
  writeFileSync(path, text);
  return path;
}

/** The ConfigError loading `text` throws (fails the test if it loads). */
function errorFor(text: string): ConfigError {
  const path = configFile(text);
  try {
    parseConfigText(readFileSync(path, 'utf8'), path);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('loadConfig: files that load', () => {
  it('gives the defaults for a missing file the user did not name', async () => {
    expect(await loadConfig(join(dir, 'absent.yml'), { explicit: false })).toEqual(DEFAULT_CONFIG);
    expect(await loadConfig(join(dir, 'no-dir', 'config.yml'), { explicit: false })).toEqual(DEFAULT_CONFIG);
  });

  it('gives the defaults for an empty or comment-only file', async () => {
    expect(await loadConfig(configFile(''), { explicit: true })).toEqual(DEFAULT_CONFIG);
    expect(await loadConfig(configFile('# nothing yet\n\n'), { explicit: true })).toEqual(DEFAULT_CONFIG);
  });

  it('merges the given keys over the defaults', async () => {
    const config = await loadConfig(
      configFile(
        'model: qwen3\nthink: high\noptions:\n  num_ctx: 16384\n  stop: ["###"]\ncompaction:\n  auto: false\n',
      ),
      { explicit: true },
    );
    expect(config.model).toBe('qwen3');
    expect(config.think).toBe('high');
    expect(config.options).toEqual({ num_ctx: 16384, stop: ['###'] });
    expect(config.compaction.auto).toBe(false);
    expect(config.compaction.reserve).toEqual(DEFAULT_CONFIG.compaction.reserve);
  });

  it('returns a config of its own, which the caller may change', async () => {
    const config = await loadConfig(configFile('model: a\n'), { explicit: true });
    config.system = 'from -s';
    config.tools.enabled.push('get_time');
    expect(DEFAULT_CONFIG.system).toBeUndefined();
    expect((await loadConfig(join(dir, 'absent.yml'), { explicit: false })).tools.enabled).toHaveLength(6);
  });

  it('accepts a byte-order mark and an empty section', async () => {
    expect((await loadConfig(configFile('\uFEFFmodel: x\n'), { explicit: true })).model).toBe('x');
    expect((await loadConfig(configFile('tools:\n  # max_steps: 3\n'), { explicit: true })).tools).toEqual(
      DEFAULT_CONFIG.tools,
    );
  });
});

describe('loadConfig: errors name file, line, column and key', () => {
  it('reports an unknown top-level key with a suggestion', () => {
    const error = errorFor('host: http://localhost:11434\nmodle: llama3.2\n');
    expect(error.line).toBe(2);
    expect(error.column).toBe(1);
    expect(error.key).toBe('modle');
    expect(error.message).toBe(`${error.file}:2:1: modle: unknown key (did you mean "model"?)`);
    expect(error.file).toMatch(/config-\d+\.yml$/);
  });

  it('reports an unknown nested key at the key, with a suggestion', () => {
    const error = errorFor('compaction:\n  auto: true\n  reserv:\n    ratio: 0.2\n');
    expect([error.line, error.column, error.key]).toEqual([3, 3, 'compaction.reserv']);
    expect(error.message).toMatch(/:3:3: compaction\.reserv: unknown key \(did you mean "reserve"\?\)$/);
  });

  it('lists the valid keys when nothing is close', () => {
    const error = errorFor('compaction:\n  reserve:\n    zzz: 1\n');
    expect(error.key).toBe('compaction.reserve.zzz');
    expect(error.message).toContain('unknown key (valid keys: ratio, min_tokens)');
  });

  it('suggests the Ollama option meant', () => {
    const error = errorFor('options:\n  temprature: 0.5\n');
    expect(error.message).toMatch(/:2:3: options\.temprature: unknown key \(did you mean "temperature"\?\)$/);
  });

  it('reports a wrong type at the value', () => {
    const error = errorFor('compaction:\n  reserve:\n    ratio: high\n');
    expect([error.line, error.column, error.key]).toEqual([3, 12, 'compaction.reserve.ratio']);
    expect(error.message).toMatch(
      /:3:12: compaction\.reserve\.ratio: must be a number between 0 and 1 \(exclusive\), got "high"$/,
    );
  });

  it('reports a compaction.details that is neither on nor off at the value', () => {
    const error = errorFor('compaction:\n  details: sometimes\n');
    expect([error.line, error.column, error.key]).toEqual([2, 12, 'compaction.details']);
    expect(error.message).toMatch(/:2:12: compaction\.details: must be on or off, got "sometimes"$/);
  });

  it('reports an out-of-range ratio and a bad floor, one line each, in file order', () => {
    const line2 = '  summary: { min_tokens: -5, ratio: 1.2 }';
    const error = errorFor(`compaction:\n${line2}\n`);
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(2);
    const [floorColumn, ratioColumn] = [line2.indexOf('-5') + 1, line2.indexOf('1.2') + 1];
    expect(lines[0]).toMatch(
      new RegExp(`:2:${floorColumn}: compaction\\.summary\\.min_tokens: must be a positive integer, got -5$`),
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `:2:${ratioColumn}: compaction\\.summary\\.ratio: must be a number between 0 and 1 \\(exclusive\\), got 1.2$`,
      ),
    );
    expect(error.issues).toHaveLength(2);
    expect(error.key).toBe('compaction.summary.min_tokens');
  });

  it('reports a mistyped tool name with its index and a suggestion', () => {
    const error = errorFor('tools:\n  enabled:\n    - read_file\n    - run_comand\n');
    expect([error.line, error.column, error.key]).toEqual([4, 7, 'tools.enabled[1]']);
    expect(error.message).toContain('got "run_comand" (did you mean "run_command"?)');
  });

  it('reports instructions_files that is not a list of names, or holds an empty one, at the value', () => {
    const notList = errorFor('model: m1\ninstructions_files: AGENTS.md\n');
    expect([notList.line, notList.column, notList.key]).toEqual([2, 21, 'instructions_files']);
    expect(notList.message).toMatch(
      /:2:21: instructions_files: must be a list of file names, got "AGENTS.md"$/,
    );
    const empty = errorFor('instructions_files:\n  - AGENTS.md\n  - " "\n');
    expect([empty.line, empty.key]).toEqual([3, 'instructions_files[1]']);
    expect(empty.message).toContain('must be a file name');
  });

  it('reads instructions_files: [] as none, and leaves it at AGENTS.md when unset', () => {
    expect(parseConfigText('instructions_files: []\n', 'c.yml').instructions_files).toEqual([]);
    expect(parseConfigText('instructions_files:\n', 'c.yml').instructions_files).toEqual(['AGENTS.md']);
  });

  it('reports a section that is not a mapping', () => {
    const error = errorFor('tools: [read_file]\n');
    expect(error.key).toBe('tools');
    expect(error.message).toContain('must be a mapping, got a list');
  });

  it('reports a file that is not a mapping at all', () => {
    const error = errorFor('just some text\n');
    expect(error.line).toBe(1);
    expect(error.key).toBeUndefined();
    expect(error.message).toContain('must be a mapping of config keys, got "just some text"');
  });

  it('reports a YAML syntax error with its line', () => {
    const tabbed = errorFor('model: llama3.2\ncompaction:\n\tauto: true\n');
    expect(tabbed.line).toBe(3);
    expect(tabbed.message).toMatch(/:3:1: invalid YAML: Tabs are not allowed as indentation$/);
    const nested = errorFor('model: llama3.2\nsystem: be: brief\n');
    expect([nested.line, nested.column]).toEqual([2, 9]);
    expect(nested.message).toMatch(/:2:9: invalid YAML: /);
    // Only the first syntax error: later ones are usually its echoes.
    expect(nested.message.split('\n')).toHaveLength(1);
  });

  it('places a syntax error found at the end of the file on its last line, not past it', () => {
    const unclosed = errorFor('model: llama3.2\ncompaction:\n  auto: [\n\n');
    expect(unclosed.line).toBe(3);
    expect(unclosed.message).toMatch(/:3:\d+: invalid YAML: Flow sequence/);
  });

  it('names a duplicated key', () => {
    const error = errorFor('compaction:\n  auto: true\n  auto: false\n');
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/:3:3: duplicate key "auto"$/);
  });

  it('reports a missing file the user named', async () => {
    const path = join(dir, 'named-but-absent.yml');
    await expect(loadConfig(path, { explicit: true })).rejects.toThrow(ConfigError);
    await expect(loadConfig(path, { explicit: true })).rejects.toThrow(`${path}: file not found`);
  });

  it('reports a directory or unreadable file instead of silently using defaults', async () => {
    const subdir = join(dir, 'a-directory.yml');
    mkdirSync(subdir);
    await expect(loadConfig(subdir, { explicit: false })).rejects.toThrow('is a directory');
    const locked = configFile('model: x\n');
    chmodSync(locked, 0o000);
    // root can read anything; the check is only meaningful for a normal user.
    if (process.getuid?.() !== 0)
      await expect(loadConfig(locked, { explicit: false })).rejects.toThrow('permission denied');
  });

  it('shows a path under the home directory with ~', async () => {
    const error = await loadConfig(configFile('x: 1\n'), { explicit: true, env: { HOME: dir } }).then(
      () => undefined,
      (e: unknown) => e as ConfigError,
    );
    expect(error?.file).toMatch(/^~\/config-\d+\.yml$/);
    expect(error?.message).toMatch(/^~\/config-\d+\.yml:1:1: x: unknown key/);
  });
});
