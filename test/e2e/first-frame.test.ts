/**
 * The first frame is drawn before the UI's modules load; keys typed while they load must neither
 * be echoed over it nor lost.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { waitForChats } from '../support/e2e-chat.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { type PtySession, spawnOchat } from '../support/pty-session.js';

let emu: Emulator | undefined;
let pty: PtySession | undefined;
afterEach(async () => {
  await pty?.dispose();
  await emu?.close();
});

test('a message typed as soon as the prompt shows is sent once the chat is ready, without echo', async () => {
  emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
  pty = spawnOchat(['-m', 'llama3.2'], { env: { OLLAMA_HOST: emu.url } });
  await pty.waitFor('›', 10_000, { settle: false });
  pty.write('early bird\r');
  await pty.waitFor('Echo: early bird');
  await waitForChats(emu, 1);
  expect(emu.chats[0].body.messages.at(-1)).toEqual({ role: 'user', content: 'early bird' });
  // Once as the user's message and once in the reply: no terminal echo of the typing.
  expect(pty.screen().match(/early bird/g)).toHaveLength(2);
});

test('a message typed ahead, before ochat has started, is sent: its Enter, typed in line mode, is Enter', async () => {
  emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
  pty = spawnOchat(['-m', 'llama3.2'], { env: { OLLAMA_HOST: emu.url } });
  // Typed at once, as after `ochat⏎` in a shell: the terminal is still in line mode, where Enter
  // reaches the program as a line feed (Ctrl+J, a new line in the editor), not a carriage return.
  pty.write('typed ahead\r');
  await pty.waitFor('Echo: typed ahead');
  await waitForChats(emu, 1);
  expect(emu.chats[0].body.messages.at(-1)).toEqual({ role: 'user', content: 'typed ahead' });
});

test('a paste just after the first frame, holding a 0x03 and line breaks, is pasted text: ochat lives, nothing is sent', async () => {
  emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
  pty = spawnOchat(['-m', 'llama3.2'], { env: { OLLAMA_HOST: emu.url } });
  await pty.waitFor('›', 10_000, { settle: false });
  // As a terminal pastes: wrapped in the markers only once the program has asked for them.
  const text = 'pasted one\x03\rpasted two\r';
  const bracketed = pty.raw().includes('\x1b[?2004h');
  pty.write(bracketed ? `\x1b[200~${text}\x1b[201~` : text);
  await pty.waitFor('pasted two');
  const early = await Promise.race([
    pty.exited,
    new Promise((resolve) => setTimeout(() => resolve('alive'), 1_000)),
  ]);
  expect(early).toBe('alive');
  expect(emu.chats).toHaveLength(0);
  expect(bracketed).toBe(true);
});

test.each([
  ['Ctrl+D', '\x04'],
  ['Ctrl+C twice', '\x03\x03'],
])(
  '%s typed at the first frame, before the chat is ready, quits and gives the terminal back',
  async (_name, keys) => {
    emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
    pty = spawnOchat(['-m', 'llama3.2'], { env: { OLLAMA_HOST: emu.url } });
    await pty.waitFor('›', 10_000, { settle: false });
    // Waits in the terminal until the UI reads its input, before the controller behind it exists.
    pty.write(keys);
    // Node 22 and 24 may read the keys only once the controller exists and is connecting: then the
    // first Ctrl+C cancels the connection, as it cancels any work (and the second, in the same
    // read, finds it still cancelling); two more quit, as they would at an idle prompt.
    if (keys.startsWith('\x03')) {
      const cancelled = await Promise.race([
        pty.exited.then(() => false),
        pty
          .waitFor('Cancelled connecting', 10_000, { settle: false })
          .then(() => true)
          .catch(() => false),
      ]);
      if (cancelled) {
        pty.write('\x03');
        await pty.waitFor('Press Ctrl+C again', 5_000, { settle: false });
        pty.write('\x03');
      }
    }
    // It hung here: the UI was gone (no status, no echo of keys) and the process lived on.
    const outcome = await Promise.race([
      pty.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000)),
    ]);
    expect(outcome).toBe(0);
    // Raw mode, bracketed paste and the cursor are given back.
    const raw = pty.raw();
    expect(raw.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(raw.lastIndexOf('\x1b[?2004h'));
    expect(raw.lastIndexOf('\x1b[?25h')).toBeGreaterThan(raw.lastIndexOf('\x1b[?25l'));
  },
);

test('the next chat runs the entry from the code cache the first one kept as it quit (Node < 22.1): the same first frame, and it chats', async () => {
  emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
  const home = mkdtempSync(join(tmpdir(), 'ochat-e2e-entry-cache-'));
  try {
    const codeDir = join(home, '.cache', 'ochat', 'code');
    const chat = async (message: string) => {
      pty = spawnOchat(['-m', 'llama3.2'], { home, env: { OLLAMA_HOST: emu!.url } });
      await pty.waitFor('›', 10_000, { settle: false });
      pty.write(`${message}\r`);
      // The chat's modules, imported by the entry (from its code cache in the second run).
      await pty.waitFor(`Echo: ${message}`);
      pty.write('/quit\r');
      expect(await pty.exited).toBe(0);
      const raw = pty.raw();
      await pty.dispose();
      pty = undefined;
      // Up to the hand-over to Ink: the first frame.
      return raw.slice(0, raw.indexOf('\x1b[?2026h'));
    };
    const first = await chat('first');
    const entryCaches = () =>
      existsSync(codeDir) ? readdirSync(codeDir).filter((name) => name.startsWith('ochat.')) : [];
    // Node >= 22.1 compiles the entry from its own compile cache instead.
    const ownCache = !('enableCompileCache' in nodeModule);
    expect(entryCaches()).toHaveLength(ownCache ? 1 : 0);
    const second = await chat('second');
    expect(second).toContain('›');
    expect(second).toBe(first);
    expect(entryCaches()).toHaveLength(ownCache ? 1 : 0);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
