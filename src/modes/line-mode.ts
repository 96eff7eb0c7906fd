import { createInterface } from 'node:readline';
import { createStore } from '../chat/state/store.js';
import { initialViewState } from '../chat/state/view-state.js';
import type { RunSettings } from '../cli/settings.js';
import { DOUBLE_CTRL_C_MS } from '../ui/input/double-ctrl-c.js';
import { isOpenTripleQuote, unwrapTripleQuote } from '../ui/input/triple-quote.js';
import { LinePrinter } from '../ui/line-printer.js';
import { endOnSignals } from './end-on-signals.js';

/** Signals closer than this are one key press (see the SIGINT handler). */
const SAME_PRESS_MS = 50;

/**
 * The chat on a dumb terminal (TERM=dumb: Emacs' shell, some editors' and CI consoles): no cursor
 * addressing, so no Ink. The terminal keeps its own line mode (it echoes and edits the line;
 * Ctrl+C is a signal, Ctrl+D the end of input), replies are printed as they stream, and nothing is
 * ever redrawn — the plain mode `ollama run` has, with its `>>>` prompt and `"""` blocks.
 */
export async function runLineMode(settings: RunSettings): Promise<void> {
  const store = createStore(initialViewState(settings.flags.model ?? settings.config.model));
  const printer = new LinePrinter((text) => process.stdout.write(text));
  let finished = () => {};
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const { createChatController } = await import('./create-controller.js');
  const controller = await createChatController(settings, {
    store,
    onExit: () => finished(),
    onReplyDelta: (delta) => printer.delta(delta),
  });
  store.subscribe(() => printer.update(store.get()));
  endOnSignals();

  const input = createInterface({ input: process.stdin, terminal: false });
  let block: string | undefined;
  input.on('line', (line) => {
    const dialog = store.get().dialog;
    if (dialog && dialog.kind !== 'tool-instruction') {
      printer.typedLine('');
      const key = line.trim().charAt(0).toLowerCase();
      // Every question but a tool's is y/n; a line that answers nothing asks again.
      if ((dialog.keys ?? ['y', 'n']).includes(key)) controller.answerDialog(key);
      else printer.askAgain(store.get());
      return;
    }
    const text = block === undefined ? line : `${block}\n${line}`;
    if (isOpenTripleQuote(text)) {
      block = text;
      printer.typedLine('');
      printer.continuation();
      return;
    }
    block = undefined;
    const message = unwrapTripleQuote(text);
    printer.typedLine(message);
    controller.submit(message);
    // A line that starts nothing (an empty one with nothing to retry) still gets its prompt back.
    setImmediate(() => printer.update(store.get()));
  });
  // Ctrl+D: the end of input ends the chat.
  input.on('close', () => controller.exit());
  let lastCtrlC = 0;
  let lastSignal = 0;
  process.on('SIGINT', () => {
    const now = Date.now();
    // signal-exit (under the state file's atomic writes) may send the same SIGINT again at once,
    // believing nobody handles it: that is still one press.
    if (now - lastSignal < SAME_PRESS_MS) return;
    lastSignal = now;
    if (controller.interrupt()) return;
    if (now - lastCtrlC < DOUBLE_CTRL_C_MS) {
      controller.exit();
      return;
    }
    lastCtrlC = now;
    block = undefined;
    printer.hint('(Press Ctrl+C again to quit)');
    printer.update(store.get());
  });

  void controller.start();
  // `ochat "question"`: the first message, sent once connected (queued behind the start).
  if (settings.prompt) controller.submit(settings.prompt);
  await done;
  input.close();
  printer.end();
  const comeBack = controller.resumeCommand();
  const unsaved = controller.unsavedOnQuit();
  if (unsaved) process.stdout.write(`⚠ ${unsaved}\n`);
  if (comeBack) process.stdout.write(`To continue this session: ${comeBack}\n`);
  // Keep-alive sockets to the server would hold the process open.
  process.exit(0);
}
