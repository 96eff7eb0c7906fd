/**
 * The prompt's line editor as a pure reducer: multi-line text with a cursor, history with the
 * unsent draft kept aside, and slash-command completion. Rendering and key handling live elsewhere.
 */
import { INPUT_HISTORY_LIMIT } from '../../config/defaults.js';
import { sanitizeTerminalText } from '../../text/sanitize.js';
import {
  chipCharacter,
  expandChips,
  hasChip,
  type PastedTexts,
  shouldCollapse,
  withoutChipCharacters,
} from './paste-chips.js';
import {
  type CompletionState,
  completionFor,
  type PathCompleter,
  type SlashCommandInfo,
  stepCompletion,
} from './slash-completion.js';
import {
  lineEndOf,
  lineStartOf,
  nextGrapheme,
  previousGrapheme,
  verticalMove,
  wordLeftOf,
  wordRightOf,
} from './text-position.js';
import { isOpenTripleQuote, unwrapTripleQuote } from './triple-quote.js';

export type { CompletionState, PathCompleter, SlashCommandInfo } from './slash-completion.js';

/** Everything the prompt shows and remembers. */
export interface EditorState {
  text: string;
  /** UTF-16 offset into `text`. */
  cursor: number;
  /** Sent inputs, oldest first. */
  history: readonly string[];
  /** Which history entry is shown; `history.length` means the draft being written. */
  historyIndex: number;
  /** The unsent text, kept while browsing history. */
  draft: string;
  /** The slash-command list under the prompt, when the text is a bare `/word`. */
  completion?: CompletionState;
  /** The commands Tab completes. */
  commands: readonly SlashCommandInfo[];
  /** Lists the paths Tab completes after `@` (attachments); none without it. */
  completePath?: PathCompleter;
  /** Set only on the state right after a `submit`: the text that was sent (chips expanded). */
  submitted?: string;
  /** The texts of collapsed pastes, by the chip character that stands for each in `text`. */
  pastes: PastedTexts;
  /** How many chips this editor has made (the next chip's number). */
  chipCount: number;
}

/** An edit or movement; intents such as Ctrl+C are not edits and live in key-map.ts. */
export type EditorAction =
  | { type: 'insert'; text: string }
  /**
   * Pasted text: collapsed into a chip when large. `continuation`: the next read of the same
   * unbracketed paste, appended to the chip before the cursor if there is one.
   */
  | { type: 'paste'; text: string; continuation?: boolean }
  /** Every chip in the text replaced by what was pasted, for editing. */
  | { type: 'expand-pastes' }
  | { type: 'backspace' }
  | { type: 'delete' }
  | { type: 'delete-word-back' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'word-left' }
  | { type: 'word-right' }
  | { type: 'up' }
  | { type: 'down' }
  | { type: 'newline' }
  | { type: 'submit' }
  | { type: 'clear-line' }
  | { type: 'kill-to-end' }
  | { type: 'complete'; direction?: 1 | -1 }
  | { type: 'dismiss-completion' }
  | { type: 'set-text'; text: string }
  /** Earlier inputs that arrive after start-up (loaded lazily); kept before this run's own. */
  | { type: 'load-history'; history: readonly string[] };

/** An empty editor, optionally with earlier history and the commands to complete. */
export function createEditorState(
  options: {
    history?: readonly string[];
    commands?: readonly SlashCommandInfo[];
    completePath?: PathCompleter;
  } = {},
): EditorState {
  const history = (options.history ?? []).slice(-INPUT_HISTORY_LIMIT);
  return {
    text: '',
    cursor: 0,
    history,
    historyIndex: history.length,
    draft: '',
    commands: options.commands ?? [],
    completePath: options.completePath,
    pastes: new Map(),
    chipCount: 0,
  };
}

/** Replaces the text (and so the completion list), putting the cursor at `cursor`. */
function withText(state: EditorState, text: string, cursor: number): EditorState {
  const { completePath } = state;
  const paths = completePath && { cursor, completePath };
  return { ...state, text, cursor, completion: completionFor(text, state.commands, paths) };
}

function replaceRange(state: EditorState, from: number, to: number, insert: string): EditorState {
  const text = state.text.slice(0, from) + insert + state.text.slice(to);
  return withText(state, text, from + insert.length);
}

/**
 * Pasted or typed text: line breaks normalised, control characters and escape sequences dropped,
 * and no chip characters (only a paste makes a chip).
 */
function cleanInsert(text: string): string {
  return withoutChipCharacters(sanitizeTerminalText(text.replace(/\r\n?/g, '\n')));
}

/** A large text put in as one chip at the cursor (an existing chip's text when `chip` is given). */
function insertChip(state: EditorState, pasted: string, chip?: string): EditorState {
  if (chip !== undefined) {
    const pastes = new Map(state.pastes).set(chip, (state.pastes.get(chip) ?? '') + pasted);
    return { ...state, pastes };
  }
  const newChip = chipCharacter(state.chipCount);
  const pastes = new Map(state.pastes).set(newChip, pasted);
  return {
    ...replaceRange(state, state.cursor, state.cursor, newChip),
    pastes,
    chipCount: state.chipCount + 1,
  };
}

function paste(state: EditorState, text: string, continuation: boolean): EditorState {
  const pasted = cleanInsert(text);
  const before = state.text.slice(previousGrapheme(state.text, state.cursor), state.cursor);
  if (continuation && state.pastes.has(before)) return insertChip(state, pasted, before);
  if (!shouldCollapse(pasted)) return replaceRange(state, state.cursor, state.cursor, pasted);
  return insertChip(state, pasted);
}

/** The text with its chips expanded, the cursor kept after the same character. */
function expandPastes(state: EditorState): EditorState {
  const before = expandChips(state.text.slice(0, state.cursor), state.pastes);
  const after = expandChips(state.text.slice(state.cursor), state.pastes);
  return withText(state, before + after, before.length);
}

/** A large entry from an earlier run's history becomes a chip too: shown whole, it would be slow. */
function collapseLargeEntries(
  state: EditorState,
  entries: readonly string[],
): EditorState & { entries: string[] } {
  let next = state;
  const collapsed = entries.map((entry) => {
    if (hasChip(entry) || !shouldCollapse(entry)) return entry;
    const chip = chipCharacter(next.chipCount);
    next = { ...next, pastes: new Map(next.pastes).set(chip, entry), chipCount: next.chipCount + 1 };
    return chip;
  });
  return { ...next, entries: collapsed };
}

/** Forgets pasted texts that neither the text nor the history refers to any more. */
function prunePastes(pastes: PastedTexts, keptTexts: readonly string[]): PastedTexts {
  if (pastes.size === 0) return pastes;
  const kept = new Map<string, string>();
  for (const text of keptTexts) {
    if (!hasChip(text)) continue;
    for (const [chip, pasted] of pastes) if (text.includes(chip)) kept.set(chip, pasted);
  }
  return kept;
}

function showHistoryEntry(state: EditorState, index: number): EditorState {
  const text = index === state.history.length ? state.draft : state.history[index];
  return { ...withText(state, text, text.length), historyIndex: index };
}

function submit(state: EditorState): EditorState {
  const { text, cursor } = state;
  // A trailing backslash continues the input on a new line, as in a shell.
  if (cursor > 0 && text[cursor - 1] === '\\') return replaceRange(state, cursor - 1, cursor, '\n');
  if (isOpenTripleQuote(text)) return replaceRange(state, cursor, cursor, '\n');
  const message = expandChips(unwrapTripleQuote(text), state.pastes);
  if (message.trim() === '') return state;
  const history =
    state.history[state.history.length - 1] === text
      ? state.history
      : [...state.history, text].slice(-INPUT_HISTORY_LIMIT);
  return {
    ...state,
    text: '',
    cursor: 0,
    history,
    historyIndex: history.length,
    draft: '',
    completion: undefined,
    submitted: message,
    pastes: prunePastes(state.pastes, history),
  };
}

function applyAction(state: EditorState, action: EditorAction): EditorState {
  const { text, cursor } = state;
  switch (action.type) {
    case 'insert':
      return replaceRange(state, cursor, cursor, cleanInsert(action.text));
    case 'paste':
      return paste(state, action.text, action.continuation ?? false);
    case 'expand-pastes':
      return expandPastes(state);
    case 'newline':
      return replaceRange(state, cursor, cursor, '\n');
    case 'backspace':
      return cursor === 0 ? state : replaceRange(state, previousGrapheme(text, cursor), cursor, '');
    case 'delete':
      return cursor === text.length ? state : replaceRange(state, cursor, nextGrapheme(text, cursor), '');
    case 'delete-word-back':
      return replaceRange(state, wordLeftOf(text, cursor), cursor, '');
    case 'left':
      return { ...state, cursor: previousGrapheme(text, cursor) };
    case 'right':
      return { ...state, cursor: nextGrapheme(text, cursor) };
    case 'home':
      return { ...state, cursor: lineStartOf(text, cursor) };
    case 'end':
      return { ...state, cursor: lineEndOf(text, cursor) };
    case 'word-left':
      return { ...state, cursor: wordLeftOf(text, cursor) };
    case 'word-right':
      return { ...state, cursor: wordRightOf(text, cursor) };
    case 'up': {
      const target = verticalMove(text, cursor, -1);
      if (target !== undefined) return { ...state, cursor: target };
      if (state.historyIndex === 0) return state;
      const draft = state.historyIndex === state.history.length ? text : state.draft;
      return showHistoryEntry({ ...state, draft }, state.historyIndex - 1);
    }
    case 'down': {
      const target = verticalMove(text, cursor, 1);
      if (target !== undefined) return { ...state, cursor: target };
      if (state.historyIndex >= state.history.length) return state;
      return showHistoryEntry(state, state.historyIndex + 1);
    }
    case 'submit':
      return submit(state);
    case 'clear-line':
      // Readline's Ctrl+U: kill from the start of the current line to the cursor.
      return replaceRange(state, lineStartOf(text, cursor), cursor, '');
    case 'kill-to-end':
      return replaceRange(state, cursor, lineEndOf(text, cursor), '');
    case 'complete': {
      if (!state.completion) return state;
      const step = stepCompletion(state.completion, action.direction ?? 1);
      // A directory completed after `@`: its entries are listed next.
      if (!step.completion && state.completion.kind === 'path')
        return withText(state, step.text, step.cursor);
      return { ...state, text: step.text, cursor: step.cursor, completion: step.completion };
    }
    case 'dismiss-completion':
      return { ...state, completion: undefined };
    case 'set-text': {
      const replacement = cleanInsert(action.text);
      return withText(state, replacement, replacement.length);
    }
    case 'load-history': {
      const { entries, ...loaded } = collapseLargeEntries(state, action.history.slice(-INPUT_HISTORY_LIMIT));
      const history = [...entries, ...state.history].slice(-INPUT_HISTORY_LIMIT);
      const browsing = state.historyIndex < state.history.length;
      const shift = history.length - state.history.length;
      return { ...loaded, history, historyIndex: browsing ? state.historyIndex + shift : history.length };
    }
  }
}

/** Applies one action. `submitted` is set on the result of a successful submit and cleared otherwise. */
export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  return applyAction(state.submitted === undefined ? state : { ...state, submitted: undefined }, action);
}
