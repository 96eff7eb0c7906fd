/**
 * The parsed config cache, end to end: the built CLI keeps what it parsed of the config file and
 * reads the file anew as soon as its text changes.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({
    tokensPerSecond: Number.POSITIVE_INFINITY,
    models: [{ name: 'llama3.2:latest' }, { name: 'qwen3:latest' }],
  });
});
afterAll(() => emu.close());

test('a config file is parsed once and kept; an edit, a fix or a new mistake counts at the next start', async () => {
  const home = mkdtempSync(join(tmpdir(), 'ochat-e2e-config-cache-'));
  try {
    const env = { OLLAMA_HOST: emu.url, HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
    const config = join(home, 'config', 'ochat', 'config.yml');
    const cache = join(home, '.cache', 'ochat', 'config.json');
    mkdirSync(join(home, 'config', 'ochat'), { recursive: true });
    const ask = async (configText: string) => {
      writeFileSync(config, configText);
      return runOchat(['-p', 'hi'], { env });
    };

    expect((await ask('model: qwen3\n')).code).toBe(0);
    expect(emu.chats.at(-1)?.body.model).toBe('qwen3');
    expect(existsSync(cache)).toBe(true);
    expect((await ask('model: qwen3\n')).code).toBe(0); // from the cache
    expect(emu.chats.at(-1)?.body.model).toBe('qwen3');

    expect((await ask('model: llama3.2\n')).code).toBe(0);
    expect(emu.chats.at(-1)?.body.model).toBe('llama3.2');

    const typo = await ask('model: llama3.2\nmodle: qwen3\n');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('config.yml:2:1: modle');

    expect((await ask('model: qwen3\n')).code).toBe(0);
    expect(emu.chats.at(-1)?.body.model).toBe('qwen3');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
