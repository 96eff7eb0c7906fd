/**
 * A chat controller wired to an Ollama emulator and a temporary working directory, for tests of
 * the tool loop as the app runs it (no PTY): script tool calls with `emu.enqueue`, send with
 * `submit`, answer dialogs, and inspect what the client sent.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatController } from '../../src/chat/chat-controller.js';
import type { DisplayItem, ToolItem } from '../../src/chat/state/display-items.js';
import type { Dialog } from '../../src/chat/state/view-state.js';
import type { Config } from '../../src/config/schema.js';
import { OllamaClient } from '../../src/ollama/client.js';
import { isSummarizerRequest } from './compaction-summarizer.js';
import { testControllerDeps } from './controller-deps.js';
import {
  type ChatMessageLike,
  type ChatRequestRecord,
  type Emulator,
  type Responder,
  startEmulator,
} from './emulator.js';

/** The model every harness talks to; `tools` is in its capabilities unless a test says otherwise. */
export const TOOL_MODEL = 'toolbot:latest';

/** The summarizer's narrative in these tests. */
export const TOOLS_NARRATIVE = 'The user asked what notes.txt says; the assistant read it.';

/** Options of {@link startToolHarness}. */
export interface ToolHarnessOptions {
  /** Capabilities of the model; default completion + tools. */
  capabilities?: string[];
  /** Overrides of `tools.*` in the config. */
  tools?: Partial<Config['tools']>;
  /** Adjusts the config (a deep copy of the defaults) before the controller is made. */
  configure?: (config: Config) => void;
  interactive?: boolean;
  autoConfirm?: 'yes' | 'no';
}

/** A started controller, its emulator and its working directory. */
export interface ToolHarness {
  emu: Emulator;
  controller: ChatController;
  config: Config;
  /** The working directory the tools are confined to (a fresh temp dir). */
  cwd: string;
  /** A directory next to `cwd`, outside the sandbox. */
  outside: string;
  items(): DisplayItem[];
  toolItems(): ToolItem[];
  /** The text of every notice shown, in order. */
  notices(): string[];
  /** Every dialog opened so far, in order. */
  dialogs: Dialog[];
  /** The chat requests of the conversation, summarizer requests left out. */
  chatRequests(): ChatRequestRecord[];
  /** The `tool` messages of a request. */
  toolMessages(request: ChatRequestRecord): ChatMessageLike[];
  /** Submits `text` and resolves when it is handled, or when a dialog opens (whichever comes first). */
  send(text: string): Promise<'idle' | Dialog>;
  /** Answers the open dialog and waits as `send` does. */
  answer(key: string): Promise<'idle' | Dialog>;
  close(): Promise<void>;
}

/** Answers summarizer requests with {@link TOOLS_NARRATIVE}; everything else falls through to the queue. */
export const summarizerResponder: Responder = (request) =>
  isSummarizerRequest(request) ? { content: TOOLS_NARRATIVE } : undefined;

/** Starts an emulator and a connected controller in a fresh temp working directory. */
export async function startToolHarness(options: ToolHarnessOptions = {}): Promise<ToolHarness> {
  const root = mkdtempSync(join(tmpdir(), 'ochat-tools-'));
  const cwd = join(root, 'work');
  const outside = join(root, 'outside');
  const stateDir = join(root, 'state');
  for (const dir of [cwd, outside, stateDir]) mkdirSync(dir, { recursive: true });

  const emu = await startEmulator({
    models: [{ name: TOOL_MODEL, capabilities: options.capabilities ?? ['completion', 'tools'] }],
    tokensPerSecond: Number.POSITIVE_INFINITY,
  });
  emu.respondWith(summarizerResponder);
  const deps = testControllerDeps(new OllamaClient({ host: emu.url }), stateDir, {
    configure: (config) => {
      Object.assign(config.tools, options.tools);
      options.configure?.(config);
    },
    cwd,
    flags: { model: TOOL_MODEL, numCtx: 8192 },
    interactive: options.interactive,
    autoConfirm: options.autoConfirm,
  });
  const controller = new ChatController(deps);
  const dialogs: Dialog[] = [];
  let lastDialog: Dialog | undefined;
  controller.store.subscribe(() => {
    const { dialog } = controller.store.get();
    if (dialog && dialog !== lastDialog) dialogs.push(dialog);
    lastDialog = dialog;
  });
  await controller.start();
  if (!controller.host.model.numCtx)
    throw new Error(`harness could not connect: ${JSON.stringify(controller.store.get().items)}`);

  /** Resolves with 'idle' when the work queue drains, or with a dialog as soon as one is open. */
  const settle = (): Promise<'idle' | Dialog> =>
    new Promise((resolve) => {
      const check = () => {
        const { dialog } = controller.store.get();
        if (dialog) {
          unsubscribe();
          resolve(dialog);
        }
      };
      const unsubscribe = controller.store.subscribe(check);
      controller.idle().then(() => {
        unsubscribe();
        resolve('idle');
      });
      check();
    });

  const items = () => controller.store.get().items;
  return {
    emu,
    controller,
    config: deps.config,
    cwd,
    outside,
    dialogs,
    items,
    toolItems: () => items().filter((item): item is ToolItem => item.kind === 'tool'),
    notices: () => items().flatMap((item) => (item.kind === 'notice' ? [item.text] : [])),
    chatRequests: () => emu.chats.filter((request) => !isSummarizerRequest(request)),
    toolMessages: (request) =>
      ((request.body?.messages ?? []) as ChatMessageLike[]).filter((m) => m.role === 'tool'),
    send(text) {
      controller.submit(text);
      return settle();
    },
    answer(key) {
      if (controller.store.get().dialog?.kind === 'tool-instruction') controller.submit(key);
      else controller.answerDialog(key);
      return settle();
    },
    async close() {
      controller.exit();
      await emu.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
