/**
 * What goes wrong before a chat can start, end to end: the server down, an unknown model, a bad
 * config file. One-shot runs end with a clear message and an exit code; the interactive app stays
 * up so the user can fix the cause and press Enter again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { unusedPort } from '../support/down-host.js';
import { exitCode, PROMPT_PLACEHOLDER, waitForChats } from '../support/e2e-chat.js';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { type PtySession, spawnOchat } from '../support/pty-session.js';

const MODELS = [{ name: 'llama3.2:latest' }, { name: 'qwen3:latest' }];

let emu: Emulator;
let dir: string;
let pty: PtySession | undefined;
let lateEmu: Emulator | undefined;

beforeAll(async () => {
  emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY, models: MODELS });
  dir = mkdtempSync(join(tmpdir(), 'ochat-e2e-config-'));
});

afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

afterEach(async () => {
  await pty?.dispose();
  pty = undefined;
  await lateEmu?.close();
  lateEmu = undefined;
});

describe('one-shot', () => {
  test('server down: stderr names the host and `ollama serve`, exit 1', async () => {
    const port = await unusedPort();
    const result = await runOchat(['-m', 'llama3.2', '-p', 'hi'], {
      env: { OLLAMA_HOST: `127.0.0.1:${port}` },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`http://127.0.0.1:${port}`);
    expect(result.stderr).toContain('ollama serve');
  });

  test('unknown model: lists the installed models and suggests `ollama pull`, exit 1', async () => {
    const result = await runOchat(['-m', 'nosuch', '-p', 'hi'], { env: { OLLAMA_HOST: emu.url } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('nosuch');
    expect(result.stderr).toContain('llama3.2:latest');
    expect(result.stderr).toContain('qwen3:latest');
    expect(result.stderr).toContain('ollama pull nosuch');
  });

  test('no model named and several installed: the message lists them, exit 1', async () => {
    const result = await runOchat(['-p', 'hi'], { env: { OLLAMA_HOST: emu.url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('-m');
    expect(result.stderr).toContain('llama3.2:latest');
    expect(result.stderr).toContain('qwen3:latest');
  });

  test('config file with an unknown key: stderr names file, line and key, exit 2', async () => {
    const file = join(dir, 'unknown-key.yml');
    writeFileSync(file, 'model: llama3.2\n\ntemperatur: 0.3\n');
    const result = await runOchat(['-c', file, '-p', 'hi'], { env: { OLLAMA_HOST: emu.url } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${file}:3`);
    expect(result.stderr).toContain('temperatur');
    expect(result.stderr).toMatch(/unknown key/i);
  });

  test('config file with a value of the wrong type: stderr names file, line and key, exit 2', async () => {
    const file = join(dir, 'wrong-type.yml');
    writeFileSync(file, 'model: llama3.2\noptions:\n  temperature: hot\n');
    const result = await runOchat(['-p', 'hi'], { env: { OLLAMA_HOST: emu.url, OCHAT_CONFIG: file } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}:3`);
    expect(result.stderr).toContain('options.temperature');
    expect(result.stderr).toContain('hot');
  });

  test('a config file that is not there, when named explicitly, is an error with exit 2', async () => {
    const file = join(dir, 'missing.yml');
    const result = await runOchat(['-c', file, '-p', 'hi'], { env: { OLLAMA_HOST: emu.url } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(file);
  });
});

describe('interactive', () => {
  test('server down: the app stays up naming the host; once the server is up, Enter connects', async () => {
    const port = await unusedPort();
    pty = spawnOchat(['-m', 'llama3.2'], { env: { OLLAMA_HOST: `127.0.0.1:${port}` } });
    await pty.waitFor(`http://127.0.0.1:${port}`);
    await pty.waitFor('ollama serve');
    await pty.waitFor(PROMPT_PLACEHOLDER);
    expect(pty.screen()).not.toContain('num_ctx');

    lateEmu = await startEmulator({ port, tokensPerSecond: Number.POSITIVE_INFINITY });
    pty.write('\r');
    await pty.waitFor(`ochat · llama3.2 · http://127.0.0.1:${port} · num_ctx 8192`);
    pty.write('hello again\r');
    await pty.waitFor('Echo: hello again');
    await waitForChats(lateEmu, 1);
    expect(lateEmu.chats[0].body.options.num_ctx).toBe(8192);
  });

  test('server down: a message typed meanwhile gets the error again, and Up + Enter sends it once the server is up', async () => {
    const port = await unusedPort();
    pty = spawnOchat(['-m', 'llama3.2'], { env: { OLLAMA_HOST: `127.0.0.1:${port}` } });
    await pty.waitFor('ollama serve');
    await pty.waitFor(PROMPT_PLACEHOLDER);
    pty.write('anyone there?\r');
    await pty.waitFor(/Cannot reach[\s\S]*Cannot reach/);
    await pty.waitFor(PROMPT_PLACEHOLDER);

    lateEmu = await startEmulator({ port, tokensPerSecond: Number.POSITIVE_INFINITY });
    pty.write('\x1b[A');
    await pty.waitFor('› anyone there?');
    pty.write('\r');
    await pty.waitFor('Echo: anyone there?');
    expect(lateEmu.chats).toHaveLength(1);
    expect(lateEmu.chats[0].body.messages).toEqual([{ role: 'user', content: 'anyone there?' }]);
  });

  test('unknown model: Pull? declined, a message lists the installed models, the app stays up, /model recovers', async () => {
    pty = spawnOchat(['-m', 'nosuch'], { env: { OLLAMA_HOST: emu.url } });
    await pty.waitFor('Pull nosuch? (y/n)');
    await pty.answer('n');
    await pty.waitFor('ollama pull nosuch');
    await pty.waitFor(PROMPT_PLACEHOLDER);
    expect(pty.screen()).toContain('llama3.2:latest');
    expect(pty.screen()).toContain('qwen3:latest');

    const before = emu.chats.length;
    pty.write('/model qwen3\r');
    await pty.waitFor('Switched to qwen3');
    pty.write('works now?\r');
    await pty.waitFor('Echo: works now?');
    await waitForChats(emu, before + 1);
    expect(emu.chats.at(-1)?.body.model).toBe('qwen3');
    pty.write('\x04');
    expect(await exitCode(pty)).toBe(0);
  });
});
