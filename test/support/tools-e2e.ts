/**
 * End-to-end helpers for tool calling: the built CLI in a PTY, run in a fresh temp working
 * directory against an emulator whose model has the `tools` capability, with an optional config.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSummarizerRequest } from './compaction-summarizer.js';
import { PROMPT_PLACEHOLDER } from './e2e-chat.js';
import type { ChatMessageLike, ChatRequestRecord, Emulator } from './emulator.js';
import { startEmulator } from './emulator.js';
import { type PtySession, spawnOchat } from './pty-session.js';
import { summarizerResponder } from './tools-harness.js';
import { waitUntil } from './wait-until.js';

/** The tool-capable model of these runs, as given to `-m`. */
export const E2E_TOOL_MODEL = 'toolbot';

/** Shown in the empty prompt once the editor has the keyboard. */

/** Options of {@link startToolRun}. */
export interface ToolRunOptions {
  /** YAML for the config file given with `-c`. */
  config?: string;
  /** Extra CLI arguments after `-m toolbot -c <file>`. */
  args?: string[];
  /** Don't wait for the interactive prompt (one-shot runs, or a dialog comes first). */
  oneShot?: boolean;
  /** Run in this directory (kept) instead of a fresh one. */
  cwd?: string;
  /** Reuse this home (XDG dirs, kept) to test remembered state. */
  home?: string;
}

/** An emulator, a working directory and ochat running in it. */
export interface ToolRun {
  emu: Emulator;
  pty: PtySession;
  /** ochat's working directory: the tools' sandbox. */
  cwd: string;
  /** Conversation requests, summarizer requests left out. */
  chatRequests(): ChatRequestRecord[];
  /** Resolves once at least `count` conversation requests have been recorded. */
  waitForRequests(count: number): Promise<ChatRequestRecord[]>;
  close(): Promise<void>;
}

/** The `tool` messages of a request. */
export function toolMessagesOf(request: ChatRequestRecord): ChatMessageLike[] {
  return ((request.body?.messages ?? []) as ChatMessageLike[]).filter((m) => m.role === 'tool');
}

/** Starts the emulator and ochat (`-m toolbot`) in a fresh working directory. */
export async function startToolRun(options: ToolRunOptions = {}): Promise<ToolRun> {
  const root = mkdtempSync(join(tmpdir(), 'ochat-tools-e2e-'));
  const cwd = options.cwd ?? join(root, 'work');
  if (!options.cwd) mkdirSync(cwd);
  const configFile = join(root, 'config.yml');
  writeFileSync(configFile, options.config ?? '');
  const emu = await startEmulator({
    models: [{ name: `${E2E_TOOL_MODEL}:latest`, capabilities: ['completion', 'tools'] }],
    tokensPerSecond: Number.POSITIVE_INFINITY,
  });
  emu.respondWith(summarizerResponder);
  const pty = spawnOchat(['-m', E2E_TOOL_MODEL, '-c', configFile, ...(options.args ?? [])], {
    cwd,
    cols: 120,
    rows: 40,
    env: { OLLAMA_HOST: emu.url },
    ...(options.home && { home: options.home }),
  });
  let closed = false;
  const chatRequests = () => emu.chats.filter((request) => !isSummarizerRequest(request));
  const run: ToolRun = {
    emu,
    pty,
    cwd,
    chatRequests,
    async waitForRequests(count) {
      await waitUntil(`${count} chat requests`, () => chatRequests().length >= count, {
        describe: () => `Got ${chatRequests().length}.`,
      });
      return chatRequests();
    },
    async close() {
      if (closed) return;
      closed = true;
      await pty.dispose();
      await emu.close();
      rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
  if (options.oneShot) return run;
  try {
    await pty.waitFor('num_ctx');
    await pty.waitFor(PROMPT_PLACEHOLDER);
  } catch (error) {
    await run.close();
    throw error;
  }
  return run;
}
