import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CommandLineExit } from '../../src/cli/flags.js';
import { type RunSettings, resolveSettings } from '../../src/cli/settings.js';
import { ConfigError } from '../../src/config/config-error.js';
import { InvalidHostError } from '../../src/platform/host.js';

let home: string;
let env: NodeJS.ProcessEnv;
let stderr: string[];

/** Runs the parser as `ochat <args>` with the test's isolated environment. */
async function resolve(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<RunSettings> {
  return await resolveSettings(['node', 'ochat', ...args], { ...env, ...extraEnv });
}

/** What `resolve` threw (fails the test when it did not throw). */
async function failure(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<unknown> {
  try {
    await resolve(args, extraEnv);
  } catch (error) {
    return error;
  }
  throw new Error(`ochat ${args.join(' ')} resolved without an error`);
}

/** Writes a file under the temp home and returns its path. */
function file(relative: string, text: string): string {
  const path = join(home, relative);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'ochat-settings-'));
  env = { HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
  stderr = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(home, { recursive: true, force: true });
});

describe('resolveSettings: config file location', () => {
  it('defaults to $XDG_CONFIG_HOME/ochat/config.yml, and a missing default file gives the defaults', async () => {
    const settings = await resolve([]);
    expect(settings.configFile).toBe(join(home, 'xdg', 'ochat', 'config.yml'));
    expect(settings.config.model).toBeUndefined();
    expect(settings.host).toBe('http://127.0.0.1:11434');
  });

  it('reads the default file when it exists', async () => {
    file('xdg/ochat/config.yml', 'model: from-default\n');
    expect((await resolve([])).config.model).toBe('from-default');
  });

  it('-c beats $OCHAT_CONFIG, which beats the default file', async () => {
    file('xdg/ochat/config.yml', 'model: from-default\n');
    const envFile = file('env.yml', 'model: from-env\n');
    const flagFile = file('flag.yml', 'model: from-flag\n');
    expect((await resolve([], { OCHAT_CONFIG: envFile })).config.model).toBe('from-env');
    const both = await resolve(['-c', flagFile], { OCHAT_CONFIG: envFile });
    expect(both.config.model).toBe('from-flag');
    expect(both.configFile).toBe(flagFile);
    expect((await resolve(['--config', '~/env.yml'])).configFile).toBe(envFile);
  });

  it('a named config file that does not exist is a ConfigError naming it', async () => {
    expect(await failure(['-c', join(home, 'nope.yml')])).toBeInstanceOf(ConfigError);
    const fromEnv = await failure([], { OCHAT_CONFIG: join(home, 'gone.yml') });
    expect(fromEnv).toBeInstanceOf(ConfigError);
    expect((fromEnv as ConfigError).message).toMatch(/gone\.yml.*file not found/);
  });

  it('a bad config file is a ConfigError with file, line and key', async () => {
    const path = file('bad.yml', 'model: qwen3\ncompaction:\n  reserve:\n    ratio: lots\n');
    const error = await failure(['-c', path]);
    expect(error).toBeInstanceOf(ConfigError);
    const configError = error as ConfigError;
    expect(configError.line).toBe(4);
    expect(configError.key).toBe('compaction.reserve.ratio');
    expect(configError.message).toContain('bad.yml:4');
  });

  it('invalid YAML is a ConfigError too', async () => {
    const path = file('broken.yml', 'model: [unclosed\n');
    expect(await failure(['-c', path])).toBeInstanceOf(ConfigError);
  });
});

describe('resolveSettings: host', () => {
  it('--host beats $OLLAMA_HOST, which beats config host, which beats the default', async () => {
    const config = file('c.yml', 'host: config-box:1111\n');
    const envHost = { OLLAMA_HOST: 'env-box:3333' };
    expect((await resolve(['-c', config, '--host', 'flag-box:2222'], envHost)).host).toBe(
      'http://flag-box:2222',
    );
    expect((await resolve(['-c', config], envHost)).host).toBe('http://env-box:3333');
    expect((await resolve(['-c', config])).host).toBe('http://config-box:1111');
    expect((await resolve([])).host).toBe('http://127.0.0.1:11434');
  });

  it('an empty $OLLAMA_HOST counts as unset', async () => {
    const config = file('c.yml', 'host: config-box\n');
    expect((await resolve(['-c', config], { OLLAMA_HOST: '' })).host).toBe('http://config-box:11434');
  });

  it("accepts Ollama's host forms", async () => {
    expect((await resolve(['--host', ':5000'])).host).toBe('http://127.0.0.1:5000');
    expect((await resolve(['--host', 'http://gpu-box'])).host).toBe('http://gpu-box:80');
  });

  it('an unusable host is an InvalidHostError', async () => {
    expect(await failure(['--host', 'ftp://x'])).toBeInstanceOf(InvalidHostError);
  });
});

describe('resolveSettings: flags', () => {
  it('parses the model, one-shot and --yes flags', async () => {
    const settings = await resolve(['-m', 'qwen3', '-p', 'hello', '-y']);
    expect(settings.flags).toMatchObject({ model: 'qwen3', print: 'hello', yes: true });
    expect((await resolve(['-p'])).flags.print).toBe(true);
    expect((await resolve([])).flags.print).toBeUndefined();
  });

  it('takes the words after the options as the first message (or the -p prompt)', async () => {
    expect((await resolve(['-m', 'qwen3', 'why is', 'the sky blue?'])).prompt).toBe('why is the sky blue?');
    const print = await resolve(['what now?', '-p']);
    expect(print.flags.print).toBe(true);
    expect(print.prompt).toBe('what now?');
    expect((await resolve(['-p', '-'])).flags.print).toBe('-');
    expect((await resolve([])).prompt).toBeUndefined();
  });

  it('--num-ctx takes a positive whole number', async () => {
    expect((await resolve(['--num-ctx', '16384'])).flags.numCtx).toBe(16384);
  });

  it.each(['0', '-5', '1.5', 'lots'])('--num-ctx %s is a usage error', async (value) => {
    const error = await failure(['--num-ctx', value]);
    expect(error).toBeInstanceOf(CommandLineExit);
    expect((error as CommandLineExit).exitCode).not.toBe(0);
    expect(stderr.join('')).toContain('expected a positive whole number');
  });

  it('an unknown flag is a usage error', async () => {
    expect(await failure(['--nope'])).toBeInstanceOf(CommandLineExit);
    expect(stderr.join('')).toContain('--nope');
  });

  it('-s overrides the system prompt of the config file', async () => {
    const config = file('c.yml', 'system: from config\n');
    expect((await resolve(['-c', config])).config.system).toBe('from config');
    expect((await resolve(['-c', config, '-s', 'from flag'])).config.system).toBe('from flag');
    expect((await resolve(['-c', config, '--system', ''])).config.system).toBe('');
  });
});
