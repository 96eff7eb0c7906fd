/**
 * The prompt's input hook: Ink's `useInput` → {@link keyToActions} → {@link editorReducer}, with
 * the intents (Ctrl+C, Ctrl+D, Esc) and submissions handed to the app's callbacks.
 */
import { type Key, useInput, useStdin } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPasteState } from './bracketed-paste.js';
import { createEditorState, type EditorAction, type EditorState, editorReducer } from './editor-state.js';
import { isKeyIntent, type KeyIntent, keyToActions } from './key-map.js';
import type { PathCompleter, SlashCommandInfo } from './slash-completion.js';

/** Callbacks and settings of {@link useLineEditor}. */
export interface LineEditorOptions {
  /** A non-blank input was sent with Enter. */
  onSubmit: (text: string) => void;
  /** Enter on a blank prompt (nothing is sent; the app may retry what failed). */
  onEmptySubmit?: () => void;
  /** Ctrl+C (the app cancels a stream, or exits on a second press with an empty prompt). */
  onInterrupt?: () => void;
  /** Ctrl+D on an empty prompt (on a non-empty one it deletes the character under the cursor). */
  onExit?: () => void;
  /** Esc, unless it closed an open completion list. */
  onEscape?: () => void;
  /** A paste over MAX_PASTE_CHARS, `chars` long, was not taken. */
  onPasteRefused?: (chars: number) => void;
  /** Whether keys are read at all. Default true. */
  isActive?: boolean;
  /**
   * Sees each input event first (`pasting`: it falls inside a bracketed paste); returning true
   * takes it from the editor, e.g. the key that answers an open dialog.
   */
  intercept?: (input: string, key: Key, pasting: boolean) => boolean;
  /** Enter does not send (a dialog is open: text typed ahead waits in the prompt; what follows goes on a new line). */
  holdSubmit?: boolean;
  /** Slash commands offered by Tab completion. */
  commands?: readonly SlashCommandInfo[];
  /** Lists paths for Tab after `@` (attachments). */
  completePath?: PathCompleter;
  /** Earlier inputs for Up/Down, oldest first (read once, at mount). */
  initialHistory?: readonly string[];
}

/** What the hook gives the app: the state to render and a way to edit it programmatically. */
export interface LineEditor {
  state: EditorState;
  dispatch: (action: EditorAction) => void;
}

/** Runs the line editor on Ink's input; render `state` with `<PromptInput />`. */
export function useLineEditor(options: LineEditorOptions): LineEditor {
  const stateRef = useRef<EditorState>(
    createEditorState({
      history: options.initialHistory,
      commands: options.commands,
      completePath: options.completePath,
    }),
  );
  const [state, setState] = useState(stateRef.current);
  const pasteRef = useRef(createPasteState());
  // Callbacks change identity on every render; keep the latest without re-subscribing to input.
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => {
    stateRef.current = { ...stateRef.current, commands: options.commands ?? [] };
  }, [options.commands]);
  useEffect(() => {
    stateRef.current = { ...stateRef.current, completePath: options.completePath };
  }, [options.completePath]);

  const dispatch = useCallback((action: EditorAction) => {
    const blankSubmit = action.type === 'submit' && stateRef.current.text.trim() === '';
    const next = editorReducer(stateRef.current, action);
    stateRef.current = next;
    setState(next);
    if (next.submitted !== undefined) optionsRef.current.onSubmit(next.submitted);
    else if (blankSubmit) optionsRef.current.onEmptySubmit?.();
  }, []);

  const handleIntent = useCallback(
    (intent: KeyIntent) => {
      const current = optionsRef.current;
      if (intent.type === 'interrupt') current.onInterrupt?.();
      else if (intent.type === 'paste-refused') current.onPasteRefused?.(intent.chars);
      else if (intent.type === 'exit') {
        // Readline's Ctrl+D: end of input only on an empty line, otherwise delete forward.
        if (stateRef.current.text === '') current.onExit?.();
        else dispatch({ type: 'delete' });
      } else if (stateRef.current.completion) dispatch({ type: 'dismiss-completion' });
      else current.onEscape?.();
    },
    [dispatch],
  );

  // The raw sequence of the event being handled: Ink emits it to this listener first (it was
  // added before useInput's), then calls the input handler with the parsed key.
  const rawRef = useRef<string | undefined>(undefined);
  /** An Enter held back by an open question: the next text typed goes on a new line. */
  const heldEnterRef = useRef(false);
  const { internal_eventEmitter: inputEvents } = useStdin();
  useEffect(() => {
    const remember = (raw: string) => {
      rawRef.current = raw;
    };
    inputEvents.on('input', remember);
    return () => {
      inputEvents.off('input', remember);
    };
  }, [inputEvents]);

  const handleInput = useCallback(
    (input: string, key: Key) => {
      if (optionsRef.current.intercept?.(input, key, pasteRef.current.active)) return;
      for (const action of keyToActions(input, key, pasteRef.current, rawRef.current)) {
        if (action.type === 'submit' && optionsRef.current.holdSubmit) {
          // Not sent while a question is open, but a line typed ahead stays a line of its own:
          // what is typed next starts a new line instead of running into it.
          heldEnterRef.current = stateRef.current.text.trim() !== '';
          continue;
        }
        if (heldEnterRef.current && (action.type === 'insert' || action.type === 'paste'))
          dispatch({ type: 'newline' });
        heldEnterRef.current = false;
        if (isKeyIntent(action)) handleIntent(action);
        else dispatch(action);
      }
    },
    [dispatch, handleIntent],
  );

  useInput(handleInput, { isActive: options.isActive ?? true });
  return { state, dispatch };
}
