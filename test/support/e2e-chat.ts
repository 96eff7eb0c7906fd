/**
 * End-to-end helpers for the interactive chat: an emulator plus the built CLI in a PTY, started
 * together and ready for input, with one `close()` for both.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Emulator, type EmulatorOptions, startEmulator } from './emulator.js';
import { type PtyOptions, type PtySession, spawnOchat } from './pty-session.js';
import { waitUntil } from './wait-until.js';

const places: string[] = [];

/** A home (its sessions folder named) and a working directory, kept across the runs of one test; see `removePlaces`. */
export function placeForRuns(prefix: string): { home: string; cwd: string; sessions: string } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  places.push(root);
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  mkdirSync(home);
  mkdirSync(cwd);
  return { home, cwd, sessions: join(home, 'data', 'ochat', 'sessions') };
}

/** Removes every place made by `placeForRuns` (in afterEach, once its runs are closed). */
export function removePlaces(): void {
  for (const dir of places.splice(0))
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/** Shown in the empty prompt once the editor has the keyboard. */
export const PROMPT_PLACEHOLDER = 'Type a message';

/** An emulator and an ochat session talking to it. */
export interface ChatRun {
  emu: Emulator;
  pty: PtySession;
  /** Ends ochat and the emulator (idempotent). */
  close(): Promise<void>;
}

/** Options of {@link startChat}. */
export interface StartChatOptions extends Omit<EmulatorOptions, 'port'> {
  /** CLI arguments; default `['-m', 'llama3.2']`. */
  args?: string[];
  /** Extra environment for ochat (OLLAMA_HOST is set to the emulator). */
  env?: Record<string, string>;
  /** PTY options (home, rows, cols, cwd). */
  pty?: Omit<PtyOptions, 'env'>;
  /** Wait for this text before returning; default the banner's `num_ctx`. */
  readyText?: string | RegExp;
}

/** Starts an emulator (fast by default) and ochat against it; resolves once the chat is ready. */
export async function startChat(options: StartChatOptions = {}): Promise<ChatRun> {
  const { args = ['-m', 'llama3.2'], env = {}, pty: ptyOptions = {}, readyText, ...emuOptions } = options;
  const emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY, ...emuOptions });
  const pty = spawnOchat(args, { ...ptyOptions, env: { OLLAMA_HOST: emu.url, ...env } });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await pty.dispose();
    await emu.close();
  };
  try {
    await pty.waitFor(readyText ?? 'num_ctx');
    await pty.waitFor(PROMPT_PLACEHOLDER);
  } catch (error) {
    await close();
    throw error;
  }
  return { emu, pty, close };
}

/** Resolves once `emu` has recorded at least `count` chat requests. */
export async function waitForChats(emu: Emulator, count: number, timeoutMs = 10_000): Promise<void> {
  await waitUntil(`${count} chat requests`, () => emu.chats.length >= count, {
    timeoutMs,
    describe: () => `Got ${emu.chats.length}.`,
  });
}

/** Resolves with the exit code, or rejects if ochat is still running after `timeoutMs`. */
export function exitCode(pty: PtySession, timeoutMs = 5_000): Promise<number> {
  return Promise.race([
    pty.exited,
    new Promise<number>((_, reject) =>
      setTimeout(() => reject(new Error(`ochat did not exit. Screen:\n${pty.screen()}`)), timeoutMs).unref(),
    ),
  ]);
}
