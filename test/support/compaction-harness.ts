/**
 * A ChatController wired to an emulator, for compaction tests without a terminal: send messages
 * and commands, wait for dialogs, read what the screen would show.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatController } from '../../src/chat/chat-controller.js';
import type { DisplayItem, NoticeItem } from '../../src/chat/state/display-items.js';
import type { Dialog } from '../../src/chat/state/view-state.js';
import type { Config } from '../../src/config/schema.js';
import type { CompactionRecord } from '../../src/conversation/compaction-record.js';
import type { Message } from '../../src/conversation/message.js';
import { OllamaClient } from '../../src/ollama/client.js';
import { testControllerDeps } from './controller-deps.js';
import type { Emulator } from './emulator.js';
import { waitUntil } from './wait-until.js';

/** How to start a chat. */
export interface ChatHarnessOptions {
  model: string;
  /** `--num-ctx`. */
  numCtx?: number;
  /** Adjusts a fresh copy of the default config. */
  configure?: (config: Config) => void;
  /** False: one-shot behaviour (no dialogs; failures are errors). */
  interactive?: boolean;
}

/** A connected controller and ways to drive and read it. */
export interface ChatHarness {
  controller: ChatController;
  config: Config;
  /** The working directory (the file tools' root). */
  cwd: string;
  /** Submits a message or command and waits until it (and anything it caused) is handled. */
  say(text: string): Promise<void>;
  /** Resolves with the dialog once one is open. */
  dialog(): Promise<Dialog>;
  /** Resolves once the store matches `predicate`; rejects after `timeoutMs` (default 10 s). */
  until(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  items(): DisplayItem[];
  notices(): NoticeItem[];
  /** The transcript. */
  transcript(): readonly Message[];
  /** Every compaction record appended so far. */
  records(): readonly CompactionRecord[];
  dispose(): void;
}

/** Starts a controller against `emu`, connected and ready. */
export async function startChat(emu: Emulator, options: ChatHarnessOptions): Promise<ChatHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-compaction-'));
  const deps = testControllerDeps(new OllamaClient({ host: emu.url }), dir, {
    configure: options.configure,
    flags: { model: options.model, numCtx: options.numCtx },
    interactive: options.interactive,
  });
  const controller = new ChatController(deps);
  await controller.start();
  const until = (predicate: () => boolean, timeoutMs?: number) =>
    waitUntil('the expected state of the chat', predicate, {
      timeoutMs,
      onChange: controller.store.subscribe,
      describe: () => JSON.stringify(controller.store.get().items.at(-1)),
    });
  return {
    controller,
    config: deps.config,
    cwd: dir,
    async say(text) {
      controller.submit(text);
      await controller.idle();
    },
    async dialog() {
      await until(() => controller.store.get().dialog !== undefined);
      return controller.store.get().dialog!;
    },
    until,
    items: () => controller.store.get().items,
    notices: () => controller.store.get().items.filter((i): i is NoticeItem => i.kind === 'notice'),
    transcript: () => controller.transcript,
    records: () => controller.records,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The one-line compaction report, capturing N, before, after, % before, % after, the window and,
 * when a summary had to be cut, the tokens dropped (what became of the exact details not captured).
 */
export const REPORT_LINE =
  /^Compacted (\d+) messages?: (\S+) → (\S+) tokens \((\d+)% → (\d+)% of (\S+)\)(?:; \d+ exact details? kept(?: \(\d+ by the summary, \d+ in the details list\))?(?:; \d+ exact details? folded to fit the summary budget \(recall still finds them\))?)?(?:; summary cut: (?:(?:the summarizer's reply ran past its length limit and lost its end|\d+ summarizer replies ran past their length limit and lost their ends)(?:; |$))?(?:(\d+) tokens dropped \(\/summary shows them\))?)?$/;
