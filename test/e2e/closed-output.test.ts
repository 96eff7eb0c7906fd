/**
 * Ending without a trace: a reader that goes away (`ochat -p … | head -1`, a closed terminal
 * window) or a signal (SIGTERM, SIGHUP) ends ochat quietly, and the terminal gets back every
 * mode ochat set. The built CLI, end to end.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn } from '@lydell/node-pty';
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, exitCode, startChat } from '../support/e2e-chat.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { waitUntil } from '../support/wait-until.js';

const OCHAT_BIN = resolve(import.meta.dirname, '../../bin/ochat');
const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';

let run: ChatRun | undefined;
let emu: Emulator | undefined;
const homes: string[] = [];

afterEach(async () => {
  await run?.close();
  run = undefined;
  await emu?.close();
  emu = undefined;
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true, maxRetries: 5 });
});

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'ochat-closed-'));
  homes.push(home);
  return home;
}

/** Many short lines, so the reply is still streaming when the reader leaves. */
const LONG_REPLY = Array.from({ length: 400 }, (_, i) => `line ${i} of a long reply`).join('\n');

describe('a reader that goes away', () => {
  test('`ochat -p … | head -1`: the first line, nothing on stderr, exit 0 or 141', async () => {
    emu = await startEmulator({ tokensPerSecond: 2000 });
    emu.enqueue({ content: LONG_REPLY });
    const home = tempHome();
    const script = `set -o pipefail; "${process.execPath}" "${OCHAT_BIN}" -m llama3.2 -p hi </dev/null 2>"${home}/err" | head -1; echo "status=$?"`;
    const stdout = await new Promise<string>((resolveRun, reject) =>
      execFile(
        'bash',
        ['-c', script],
        {
          env: {
            PATH: process.env.PATH ?? '',
            HOME: home,
            OLLAMA_HOST: emu?.url ?? '',
            XDG_CONFIG_HOME: home,
            XDG_DATA_HOME: home,
          },
          timeout: 15_000,
        },
        (error, out) => (error ? reject(error) : resolveRun(out)),
      ),
    );
    const [first, status] = stdout.trim().split('\n');
    expect(first).toBe('line 0 of a long reply');
    expect(['status=0', 'status=141']).toContain(status);
    expect(readFileSync(join(home, 'err'), 'utf8')).toBe('');
  });

  test('closing the terminal window: no error, no assertion, the process ends', async () => {
    emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
    const home = tempHome();
    // stderr to a file: the terminal it would go to is the one being closed.
    const pty = spawn(
      '/bin/sh',
      ['-c', `exec "${process.execPath}" "${OCHAT_BIN}" -m llama3.2 2>"${home}/err"`],
      {
        cols: 100,
        rows: 30,
        cwd: home,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          TERM: 'xterm-256color',
          OLLAMA_HOST: emu.url,
          XDG_CONFIG_HOME: home,
          XDG_DATA_HOME: home,
        },
      },
    );
    let screen = '';
    pty.onData((data) => {
      screen += data;
    });
    const exited = new Promise<{ exitCode: number; signal?: number }>((r) => pty.onExit(r));
    await waitUntil('the prompt', () => screen.includes('Type a message'), { describe: () => screen });
    // Closes the terminal side, as closing the window does (then SIGHUP, as the kernel sends).
    (pty as typeof pty & { destroy(): void }).destroy();
    const { signal } = await exited;
    // Not killed by an abort (SIGABRT, 6): Node's ResetStdio assertion on the vanished terminal.
    expect(signal ?? 0, readFileSync(join(home, 'err'), 'utf8')).not.toBe(6);
    expect(readFileSync(join(home, 'err'), 'utf8')).toBe('');
  });
});

describe('signals', () => {
  test.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('after %s every terminal mode is restored and ochat exits %i', async (signal, code) => {
    run = await startChat();
    const { pty } = run;
    expect(pty.raw()).toContain(BRACKETED_PASTE_ON);
    process.kill(pty.pid, signal);
    expect(await exitCode(pty)).toBe(code);
    const raw = pty.raw();
    expect(raw.lastIndexOf(BRACKETED_PASTE_OFF)).toBeGreaterThan(raw.lastIndexOf(BRACKETED_PASTE_ON));
    // The cursor is shown again.
    expect(raw.lastIndexOf('\x1b[?25h')).toBeGreaterThan(raw.lastIndexOf('\x1b[?25l'));
  });

  test.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    'after %s the session is kept and its lock released: the next ochat is not told it is open elsewhere',
    async (signal, code) => {
      const home = tempHome();
      run = await startChat({ pty: { home, cwd: home } });
      const { pty, emu } = run;
      emu.enqueue({ content: 'Kept.' });
      pty.write('remember this\r');
      await pty.waitFor('Kept.');
      const sessions = join(home, 'data', 'ochat', 'sessions');
      expect(readdirSync(sessions).filter((f) => f.endsWith('.lock'))).toHaveLength(1);
      process.kill(pty.pid, signal);
      expect(await exitCode(pty)).toBe(code);
      expect(readdirSync(sessions).filter((f) => f.endsWith('.jsonl'))).toHaveLength(1);
      expect(readdirSync(sessions).filter((f) => f.endsWith('.lock'))).toEqual([]);
    },
  );
});
