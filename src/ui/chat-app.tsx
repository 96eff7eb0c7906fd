import { useApp, useInput, useStdout } from 'ink';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Store } from '../chat/state/store.js';
import type { ChatViewState } from '../chat/state/view-state.js';
import { ChatScreen } from './components/chat-screen.js';
import { NO_MODEL_LABEL } from './first-frame.js';
import { MAX_PASTE_CHARS } from './input/bracketed-paste.js';
import { createDialogKeyGate } from './input/dialog-key-gate.js';
import { DOUBLE_CTRL_C_MS } from './input/double-ctrl-c.js';
import { hasChip } from './input/paste-chips.js';
import type { PathCompleter, SlashCommandInfo } from './input/slash-completion.js';
import { useLineEditor } from './input/use-line-editor.js';
import { pullLines } from './pull-layout.js';
import { useScreenRedraw } from './use-screen-redraw.js';

/** What the chat screen drives: the controller's state and its intents (no I/O happens here). */
export interface ChatAppModel {
  store: Store<ChatViewState>;
  submit(text: string): void;
  /** Enter on an empty prompt: retry what failed (the connection, or the last turn). */
  retry?(): void;
  /** Cancels work in progress; false when there was nothing to cancel. */
  interrupt(): boolean;
  /** Removes the newest input still waiting its turn and returns its text (undefined: none waits). */
  takeBackQueued?(): string | undefined;
  answerDialog(key: string): void;
  toggleThinking(): void;
  exit(): void;
}

/** How long the word that a paste was too big stays in the status line. */
const PASTE_REFUSED_HINT_MS = 10_000;

/** Props of {@link ChatApp}. */
export interface ChatAppProps {
  model: ChatAppModel;
  /** Slash commands offered by Tab completion. */
  commands: readonly SlashCommandInfo[];
  /** Lists paths for Tab after `@` (attachments). */
  completePath?: PathCompleter;
  /** Earlier inputs for Up/Down, oldest first; may arrive after the first frame. */
  history: readonly string[];
  /** The clock that times the pause before a dialog's answer key (injected by tests). */
  now?: () => number;
  /** Erases ochat's own rows before a redraw, and only those (see OwnRows); absent: the visible screen. */
  eraseOwnOutput?: () => void;
}

/** Keys a dialog accepts, by kind. */
const DIALOG_KEYS: Record<string, readonly string[]> = {
  'retry-compaction': ['y', 'n'],
  'send-oversized': ['y', 'n'],
  'confirm-delete': ['y', 'n'],
  'held-session': ['y', 'n'],
  'pull-model': ['y', 'n'],
  'approve-mcp': ['y', 'n'],
  'restart-mcp': ['y', 'n'],
  'confirm-tool': ['y', 'n', 'a', 'i'],
};

function readSize(stdout: NodeJS.WriteStream): { width: number; height: number } {
  return { width: stdout.columns || 80, height: stdout.rows || 24 };
}

/** Terminal size, following resizes. */
function useTerminalSize(): { width: number; height: number } {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => readSize(stdout));
  useEffect(() => {
    const onResize = () => setSize(readSize(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/** The interactive chat: renders the controller's state and turns keys into its intents. */
export function ChatApp({ model, commands, completePath, history, now, eraseOwnOutput }: ChatAppProps) {
  const state = useSyncExternalStore(model.store.subscribe, model.store.get);
  const { width, height } = useTerminalSize();
  const { exit } = useApp();
  const [hint, setHint] = useState<string | undefined>();
  const lastCtrlC = useRef(0);
  const dialog = state.dialog;
  const pickDialog = dialog?.options ? dialog : undefined;
  const keyDialog = dialog && dialog.kind !== 'tool-instruction' && !pickDialog ? dialog : undefined;
  // The highlighted entry of an open pick dialog.
  const [picked, setPicked] = useState(0);
  useEffect(() => {
    if (pickDialog) setPicked(0);
  }, [pickDialog]);
  const [gate] = useState(() => createDialogKeyGate(now));
  // Keys typed while the dialog is open went to the prompt: say so, and how to answer.
  const [typedAhead, setTypedAhead] = useState(false);
  useEffect(() => {
    if (keyDialog) gate.open();
    setTypedAhead(false);
  }, [keyDialog, gate]);
  // Ctrl+T changes nothing on screen while no finished reply has thinking: no redraw then.
  const [redrawKey, redraw] = useScreenRedraw(state.showThinking ? 'thinking shown' : 'thinking collapsed', {
    modeShows: state.items.some((item) => item.kind === 'thinking'),
    eraseOwnOutput,
  });

  useEffect(() => {
    if (state.exiting) exit();
  }, [state.exiting, exit]);

  // A plain function: the editor hook always calls the latest one, which sees the latest text.
  const onInterrupt = () => {
    if (model.interrupt()) return;
    if (editor.state.text !== '') {
      editor.dispatch({ type: 'set-text', text: '' });
      return;
    }
    const now = Date.now();
    if (now - lastCtrlC.current < DOUBLE_CTRL_C_MS) {
      model.exit();
      return;
    }
    lastCtrlC.current = now;
    setHint('Press Ctrl+C again to quit');
    setTimeout(() => setHint(undefined), DOUBLE_CTRL_C_MS);
  };

  const editor = useLineEditor({
    onSubmit: (text) => model.submit(text),
    onEmptySubmit: () => model.retry?.(),
    onInterrupt,
    onExit: () => model.exit(),
    onPasteRefused: (chars) => {
      const millions = (count: number) => `${(count / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} M`;
      setHint(
        `paste of ${millions(chars)} characters not taken: the most is ${millions(MAX_PASTE_CHARS)}, more than any model's window holds`,
      );
      setTimeout(() => setHint(undefined), PASTE_REFUSED_HINT_MS);
    },
    onEscape: () => {
      if (state.dialog?.kind === 'tool-instruction') model.answerDialog('');
      else if (editor.state.text !== '') editor.dispatch({ type: 'set-text', text: '' });
      else {
        // An empty prompt: the newest queued message comes back to be edited or dropped, unsent.
        const text = model.takeBackQueued?.();
        if (text !== undefined) editor.dispatch({ type: 'set-text', text });
      }
    },
    // While a y/n dialog is open, only a deliberate key answers it; other keys are typing.
    intercept: (input, key, pasting) => {
      if (pickDialog && !pasting) {
        const options = pickDialog.options ?? [];
        if (key.upArrow) setPicked((at) => Math.max(0, at - 1));
        else if (key.downArrow) setPicked((at) => Math.min(options.length - 1, at + 1));
        else if (key.return) model.answerDialog(options[picked]?.value ?? '');
        else if (key.escape) model.answerDialog('');
        // Other keys are typing: they wait in the prompt, as with any open question.
        else return false;
        return true;
      }
      if (!keyDialog) {
        gate.typed();
        return false;
      }
      const outcome = gate.classify(
        { input, key, pasting },
        keyDialog.keys ?? DIALOG_KEYS[keyDialog.kind] ?? [],
      );
      if (outcome.kind === 'answer') model.answerDialog(outcome.key);
      else if (outcome.kind === 'type') setTypedAhead(true);
      return outcome.kind !== 'type';
    },
    holdSubmit: Boolean(keyDialog || pickDialog),
    commands,
    completePath,
  });
  const { dispatch } = editor;
  useEffect(() => {
    if (history.length) dispatch({ type: 'load-history', history });
  }, [history, dispatch]);

  // The instruction for a tool is typed in the prompt: text typed ahead waits aside meanwhile.
  const instructing = dialog?.kind === 'tool-instruction';
  const setAside = useRef<string | undefined>(undefined);
  const promptText = useRef('');
  promptText.current = editor.state.text;
  useEffect(() => {
    if (instructing) {
      setAside.current = promptText.current;
      dispatch({ type: 'set-text', text: '' });
    } else if (setAside.current !== undefined) {
      dispatch({ type: 'set-text', text: setAside.current });
      setAside.current = undefined;
    }
  }, [instructing, dispatch]);

  useInput(
    (input, key) => {
      if (key.ctrl && input === 't') model.toggleThinking();
      // As in a shell: the screen drawn again (ochat's own rows; what was above them stays).
      if (key.ctrl && input === 'l') redraw();
    },
    { isActive: true },
  );

  // While text streams in, the text itself shows progress: an animated spinner would add a
  // dozen full renders a second for nothing.
  const streaming = Boolean(state.live?.text) && !state.live?.shell;
  // A model loading at the server says so, with the seconds waited, in place of "waiting for…".
  const loadingLabel =
    state.loading && !streaming ? (state.loading.label ?? `loading ${state.loading.model}…`) : undefined;
  const busy = streaming ? undefined : (loadingLabel ?? state.busy);
  const busyHint = streaming ? 'streaming · ctrl+c to cancel' : 'ctrl+c to cancel';
  const pasteHint = hasChip(editor.state.text) ? 'ctrl+o to expand the paste' : undefined;
  return (
    <ChatScreen
      items={state.items}
      live={state.live && { ...state.live, waiting: loadingLabel }}
      progress={state.pull ? pullLines(state.pull.state, Math.max(1, width - 1)) : undefined}
      queued={queuedTexts(state.queued)}
      // Quitting: the last frame leaves no status line behind either.
      status={
        state.exiting
          ? undefined
          : {
              model: state.model ?? NO_MODEL_LABEL,
              numCtx: state.numCtx,
              windowSource: state.windowSource,
              used: state.used,
              autoCompactPaused: state.autoCompactPaused,
              spill: state.spill,
              busy,
              busySince: loadingLabel ? state.loading?.since : undefined,
              waiting: dialog && waitingLabel(dialog, keyDialog?.keys ?? DIALOG_KEYS[dialog.kind]),
              hint:
                hint ??
                (dialog ? dialogHint(dialog) : state.busy ? busyHint : (pasteHint ?? state.lastStats)),
            }
      }
      // Quitting: the last frame has no prompt (nor its completion list) left on the screen.
      input={state.exiting ? undefined : editor.state}
      inputActive={!keyDialog}
      pick={
        pickDialog
          ? {
              question: pickDialog.question,
              choices: pickDialog.choices,
              options: pickDialog.options ?? [],
              selected: picked,
            }
          : undefined
      }
      dialog={
        dialog && !pickDialog
          ? {
              question: dialog.question,
              choices: dialog.choices,
              preview: dialog.preview,
              hint:
                keyDialog && typedAhead
                  ? typedAheadHint(keyDialog.keys ?? DIALOG_KEYS[keyDialog.kind])
                  : undefined,
            }
          : undefined
      }
      width={width}
      height={height}
      showThinking={state.showThinking}
      redrawKey={redrawKey}
    />
  );
}

/** The status line while a question waits for the user (not the work it interrupted, e.g. `running write_file…`). */
function waitingLabel(dialog: NonNullable<ChatViewState['dialog']>, keys: readonly string[] = []): string {
  if (dialog.kind === 'tool-instruction') return 'waiting for your instruction · enter to send';
  if (dialog.options) return 'waiting for your choice · ↑/↓ enter';
  return `waiting for your answer · ${keys.join('/')}`;
}

/** What Esc does to an open question (to a held session's, it picks read-only: no "decline" there). */
function dialogHint(dialog: NonNullable<ChatViewState['dialog']>): string | undefined {
  return dialog.kind === 'held-session' ? undefined : 'esc to decline';
}

/** The queued inputs the user typed (a retry has no text to show). */
function queuedTexts(queued: ChatViewState['queued']): { id: number; text: string }[] {
  return queued.flatMap(({ id, text }) => (text === undefined ? [] : [{ id, text }]));
}

/** Shown under a dialog once keys typed while it is open went to the prompt. */
function typedAheadHint(keys: readonly string[] = []): string {
  return `Typing goes to the prompt. To answer, pause, then press ${keys.join(', ')} on its own.`;
}
