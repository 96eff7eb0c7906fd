import { render } from 'ink';
import type { ChatController } from '../chat/chat-controller.js';
import { createStore } from '../chat/state/store.js';
import { initialViewState } from '../chat/state/view-state.js';
import type { RunSettings } from '../cli/settings.js';
import { BUILTIN_COMMANDS } from '../commands/builtin-commands.js';
import { writeClipboard } from '../text/sanitize.js';
import { ChatApp, type ChatAppModel } from '../ui/chat-app.js';
import type { FirstFrame } from '../ui/first-frame.js';
import {
  disableBracketedPaste,
  enableBracketedPaste,
  queryBracketedPaste,
} from '../ui/input/bracketed-paste.js';
import type { SlashCommandInfo } from '../ui/input/slash-completion.js';
import { loadMarkdownRenderer } from '../ui/markdown/render-markdown.js';
import { MARKER_COLUMNS } from '../ui/notice-style.js';
import { OwnRows } from '../ui/own-rows.js';
import { endOnSignals } from './end-on-signals.js';

/**
 * Runs the interactive chat until the user quits. The first frame is drawn before the controller
 * and everything behind it (HTTP client, state store, tools, compaction) is even loaded; keys
 * pressed meanwhile are handed over once it is.
 */
export async function runInteractive(settings: RunSettings, firstFrame?: FirstFrame): Promise<void> {
  const store = createStore(initialViewState(settings.flags.model ?? settings.config.model));
  let controller: ChatController | undefined;
  const waiting: ((c: ChatController) => void)[] = [];
  const whenReady = (action: (c: ChatController) => void) =>
    controller ? action(controller) : waiting.push(action);
  let quit = () => {};
  const model: ChatAppModel = {
    store,
    submit: (text) => whenReady((c) => c.submit(text)),
    retry: () => whenReady((c) => c.retry()),
    interrupt: () => controller?.interrupt() ?? false,
    takeBackQueued: () => controller?.takeBackQueued(),
    answerDialog: (key) => whenReady((c) => c.answerDialog(key)),
    toggleThinking: () => whenReady((c) => c.toggleThinking()),
    exit: () => (controller ? controller.exit() : quit()),
  };

  enableBracketedPaste(process.stdout);
  // The answer, if any, arrives as input and is taken by the editor; nothing waits for it.
  queryBracketedPaste(process.stdout);
  let restored = false;
  const restoreTerminal = () => {
    if (restored) return;
    restored = true;
    disableBracketedPaste(process.stdout);
  };
  process.once('exit', restoreTerminal);
  // Argument completion reads what the controller knows (installed models, tools) once it exists.
  const commands: SlashCommandInfo[] = BUILTIN_COMMANDS.map((command) => {
    const { completion } = command;
    if (!completion) return command;
    return {
      ...command,
      complete: (args: string) => (controller ? completion(controller.completionContext(), args) : []),
    };
  });
  const completePath = (partial: string) => controller?.completeAttachmentPath(partial) ?? [];
  const eraseOwnOutput = () => {
    // Ink's live area first: how many rows it erased is how far its next frame erases upwards,
    // so the cursor is left that far below ochat's first row (blank rows), not over the shell's.
    const before = ownRows.above;
    instance.clear();
    const live = before - ownRows.above + 1;
    process.stdout.write(ownRows.eraseSequence(process.stdout.rows) + '\n'.repeat(Math.max(0, live - 1)));
  };
  const app = <T extends readonly string[]>(history: T) => (
    <ChatApp
      model={model}
      commands={commands}
      completePath={completePath}
      history={history}
      eraseOwnOutput={eraseOwnOutput}
    />
  );
  firstFrame?.handOver();
  // From here on ochat's rows are its own: a redraw erases those, never the shell's above them.
  const ownRows = new OwnRows(process.stdout);
  // Ctrl+C must reach the app: it cancels a reply before it quits.
  const instance = render(app([]), { exitOnCtrlC: false, patchConsole: true });
  // Asked now: Ink makes the promise on the first call, and an unmount before it (Ctrl+D while the
  // controller loads) would leave it unresolved and ochat running with no UI.
  const exited = instance.waitUntilExit();
  let quitBeforeReady = false;
  quit = () => {
    quitBeforeReady ||= controller === undefined;
    instance.unmount();
  };
  // Killed or hung up: give the terminal back as it was (raw mode, cursor, paste mode), then end.
  endOnSignals(() => {
    instance.unmount();
    restoreTerminal();
  });

  const { createChatController } = await import('./create-controller.js');
  controller = await createChatController(settings, {
    store,
    // The app ends itself once it has drawn its last frame (no prompt, no completion list left);
    // unmounting here at once would keep the frame before it. This is the fallback.
    onExit: () => setTimeout(quit, 200),
    columns: () => (process.stdout.columns || 80) - MARKER_COLUMNS,
    // `-r` alone: a choice of this directory's sessions; `--continue`: the newest, unasked.
    pickSession: settings.flags.resume === true && !settings.flags.continue,
    // OSC 52, written beside Ink's frames: it prints nothing, so the screen is unchanged.
    copyToClipboard: (text) => writeClipboard(process.stdout, text),
  });
  // Quit before it existed: nothing to connect to, send or resume.
  if (!quitBeforeReady) {
    instance.rerender(app(controller.history()));
    // Load the markdown renderer while connecting, so it is there before the first reply.
    void controller.start(loadMarkdownRenderer());
    // `ochat "question"`: the first message, sent once connected (queued behind the start).
    if (settings.prompt) controller.submit(settings.prompt);
    for (const action of waiting.splice(0)) action(controller);
  }

  await exited;
  restoreTerminal();
  // MCP servers' stdio children end with ochat: closed, then killed if they linger (≤ 1 s).
  await controller.shutdown();
  const comeBack = controller.resumeCommand();
  const unsaved = controller.unsavedOnQuit();
  if (unsaved) process.stdout.write(`⚠ ${unsaved}\n`);
  if (comeBack) process.stdout.write(`To continue this session: ${comeBack}\n`);
  // Keep-alive sockets to the server would hold the process open.
  process.exit(0);
}
