/**
 * Turns Ink's input events into editor actions and app intents. Ink delivers typed bursts and
 * pastes as whole chunks (`"hi\r"`), so chunks are read character by character.
 */
import type { Key } from 'ink';
import {
  createPasteState,
  MAX_PASTE_CHARS,
  PASTE_END,
  PASTE_START,
  type PasteState,
  readBracketedPasteReport,
} from './bracketed-paste.js';
import type { EditorAction } from './editor-state.js';

/** Keys that are requests to the app rather than edits: the app decides what they mean. */
export type KeyIntent =
  /** Ctrl+C: cancel the stream, or exit when pressed twice on an empty prompt. */
  | { type: 'interrupt' }
  /** Ctrl+D. */
  | { type: 'exit' }
  /** Esc. */
  | { type: 'escape' }
  /** A paste over MAX_PASTE_CHARS (`chars` long): not taken. */
  | { type: 'paste-refused'; chars: number };

/** What one input event asks for. */
export type KeyAction = EditorAction | KeyIntent;

/** True for the intents (as opposed to edits). */
export function isKeyIntent(action: KeyAction): action is KeyIntent {
  return (
    action.type === 'interrupt' ||
    action.type === 'exit' ||
    action.type === 'escape' ||
    action.type === 'paste-refused'
  );
}

// Ink's parser hands each escape sequence over separately with the ESC stripped.
const STRIPPED_PASTE_START = PASTE_START.slice(1);
const STRIPPED_PASTE_END = PASTE_END.slice(1);
// Other unrecognised escape sequences (e.g. ESC[1;2P) would otherwise be typed in as text.
const STRIPPED_UNKNOWN_SEQUENCE = /^\[[\d;?]+[~A-Za-z]$/;

const CTRL_LETTER_ACTIONS: Record<string, KeyAction> = {
  c: { type: 'interrupt' },
  d: { type: 'exit' },
  u: { type: 'clear-line' },
  k: { type: 'kill-to-end' },
  w: { type: 'delete-word-back' },
  a: { type: 'home' },
  e: { type: 'end' },
  b: { type: 'left' },
  f: { type: 'right' },
  p: { type: 'up' },
  n: { type: 'down' },
  o: { type: 'expand-pastes' },
};

const CONTROL_CHAR_ACTIONS: Record<string, KeyAction> = {
  '\x7f': { type: 'backspace' },
  '\b': { type: 'backspace' },
  '\x03': { type: 'interrupt' },
  '\x04': { type: 'exit' },
  '\x15': { type: 'clear-line' },
  '\x0b': { type: 'kill-to-end' },
  '\x17': { type: 'delete-word-back' },
  '\x01': { type: 'home' },
  '\x05': { type: 'end' },
};

function hasModifierOrSpecialKey(key: Key): boolean {
  return (
    key.ctrl ||
    key.meta ||
    key.return ||
    key.escape ||
    key.tab ||
    key.backspace ||
    key.delete ||
    key.upArrow ||
    key.downArrow ||
    key.leftArrow ||
    key.rightArrow ||
    key.home ||
    key.end ||
    key.pageUp ||
    key.pageDown
  );
}

// The Delete key (also with modifiers: ESC[3;5~, rxvt's ESC[3$ and ESC[3^).
const FORWARD_DELETE = /^\x1b\[3(?:;\d+)?[~$^]$/;

/** Single special keys (arrows, Enter, Tab, Ctrl/Alt combinations); undefined for plain text. */
function specialKeyActions(input: string, key: Key, raw: string | undefined): KeyAction[] | undefined {
  if (key.return) return [{ type: key.meta ? 'newline' : 'submit' }];
  if (key.escape) return [{ type: 'escape' }];
  if (key.tab) return [{ type: 'complete', direction: key.shift ? -1 : 1 }];
  // Ink reports Backspace (DEL, 0x7f) and Delete (ESC[3~) alike as `key.delete`: the raw
  // sequence tells them apart.
  if (key.delete && raw !== undefined && FORWARD_DELETE.test(raw)) return [{ type: 'delete' }];
  if (key.backspace || key.delete) return [{ type: key.meta ? 'delete-word-back' : 'backspace' }];
  if (key.leftArrow) return [{ type: key.ctrl || key.meta ? 'word-left' : 'left' }];
  if (key.rightArrow) return [{ type: key.ctrl || key.meta ? 'word-right' : 'right' }];
  if (key.upArrow) return [{ type: 'up' }];
  if (key.downArrow) return [{ type: 'down' }];
  if (key.home) return [{ type: 'home' }];
  if (key.end) return [{ type: 'end' }];
  if (key.pageUp || key.pageDown) return [];
  if (key.ctrl && input.length === 1) {
    const action = CTRL_LETTER_ACTIONS[input.toLowerCase()];
    return action ? [action] : [];
  }
  if (key.meta && input === 'b') return [{ type: 'word-left' }];
  if (key.meta && input === 'f') return [{ type: 'word-right' }];
  if (key.meta) return [];
  return undefined;
}

/**
 * The heuristic for a terminal not known to bracket pastes: a chunk whose last line has no Enter
 * after it is text pasted unbracketed (its `\r`s are line breaks), while a chunk ending in Enter is
 * typed-ahead lines, each a message — lines each followed by Enter are never merged.
 */
function looksPastedUnbracketed(chunk: string): boolean {
  return /[^\r\n]/.test(chunk.slice(chunk.lastIndexOf('\r') + 1));
}

// The reads of one unbracketed paste arrive back to back; a key typed after it comes later.
const UNBRACKETED_READS_GAP_MS = 25;
const UNBRACKETED_PASTE_MIN_CHARS = 256;

/** Marks the start of a bracketed paste: its text is gathered until the end marker. */
function startPaste(paste: PasteState): void {
  paste.active = true;
  paste.bracketed = true;
  paste.text = '';
  paste.over = 0;
}

/** Adds a piece of the paste being received; past MAX_PASTE_CHARS only its length is counted. */
function takePasted(paste: PasteState, piece: string): void {
  if (paste.over === 0 && paste.text.length + piece.length <= MAX_PASTE_CHARS) paste.text += piece;
  else {
    paste.over += paste.text.length + piece.length;
    paste.text = '';
  }
}

/** Ends a bracketed paste: the whole pasted text as one action (a refusal when it was too big). */
function endPaste(paste: PasteState): KeyAction[] {
  const { text, over } = paste;
  paste.active = false;
  paste.bracketed = true;
  paste.text = '';
  paste.over = 0;
  if (over > 0) return [{ type: 'paste-refused', chars: over }];
  return text ? [{ type: 'paste', text }] : [];
}

/** Reads a text chunk character by character, tracking paste markers inside it. */
function chunkActions(chunk: string, paste: PasteState): KeyAction[] {
  const actions: KeyAction[] = [];
  // Without bracketed paste, a chunk that looks pasted is one paste (its Enters are line breaks).
  const looksPasted = looksPastedUnbracketed(chunk);
  // Longer than anyone types between two reads, or several lines: handed over as a paste (which
  // may become a chip); a few typed-ahead characters stay plain typing.
  // (Terminals send a pasted line break as \r; a lone \n is Ctrl+J, typed.)
  const pastedText =
    looksPasted &&
    !chunk.includes(PASTE_START) &&
    (chunk.includes('\r') || chunk.length >= UNBRACKETED_PASTE_MIN_CHARS);
  let text = '';
  const flush = () => {
    if (!text) return;
    if (pastedText && !paste.bracketed) {
      const now = Date.now();
      const continuation =
        paste.unbracketedAt !== undefined && now - paste.unbracketedAt < UNBRACKETED_READS_GAP_MS;
      paste.unbracketedAt = now;
      actions.push({ type: 'paste', text, continuation });
    } else actions.push({ type: 'insert', text });
    text = '';
  };
  for (let index = 0; index < chunk.length; index++) {
    if (chunk.startsWith(PASTE_START, index)) {
      flush();
      startPaste(paste);
      index += PASTE_START.length - 1;
      continue;
    }
    if (chunk.startsWith(PASTE_END, index)) {
      actions.push(...endPaste(paste));
      index += PASTE_END.length - 1;
      continue;
    }
    if (paste.active) {
      // The pasted text up to its end marker (or the chunk's end) in one piece.
      const end = chunk.indexOf(PASTE_END, index);
      const stop = end === -1 ? chunk.length : end;
      takePasted(paste, chunk.slice(index, stop));
      index = stop - 1;
      continue;
    }
    const char = chunk[index];
    if (char === '\n' || char === '\t' || (char >= ' ' && char !== '\x7f')) {
      text += char;
      continue;
    }
    if (char === '\r') {
      // A pasted CRLF: its \n is kept as the line break.
      if (chunk[index + 1] === '\n') continue;
      // Outside a paste Enter submits, even mid-chunk (keys typed ahead arrive in one read).
      if (!paste.bracketed && looksPasted) text += '\n';
      else {
        flush();
        actions.push({ type: 'submit' });
      }
      continue;
    }
    const action = CONTROL_CHAR_ACTIONS[char];
    if (action) {
      flush();
      actions.push(action);
    }
    // Any other control character (ESC of a stray sequence included) is dropped; the reducer
    // sanitises inserted text as well.
  }
  flush();
  return actions;
}

/**
 * Maps one `useInput` event to actions. `paste` carries the bracketed-paste state across events
 * (the markers and the pasted text arrive as separate events); inside a paste, `\r` is a newline.
 * `raw` is the event's sequence as the terminal sent it, where Ink's `key` loses the difference.
 */
export function keyToActions(
  input: string,
  key: Key,
  paste: PasteState = createPasteState(),
  raw?: string,
): KeyAction[] {
  if (!hasModifierOrSpecialKey(key)) {
    if (input === STRIPPED_PASTE_START) {
      startPaste(paste);
      return [];
    }
    if (input === STRIPPED_PASTE_END) return endPaste(paste);
    // The terminal's answer to the bracketed-paste query: never typed into the prompt.
    const supportsBracketedPaste = readBracketedPasteReport(input);
    if (supportsBracketedPaste !== undefined) {
      if (supportsBracketedPaste) paste.bracketed = true;
      return [];
    }
    if (STRIPPED_UNKNOWN_SEQUENCE.test(input)) return [];
  }
  if (paste.active) {
    // Inside a paste only text matters: a lone pasted line break arrives as `key.return`.
    if (key.return) takePasted(paste, '\n');
    else if (key.tab) takePasted(paste, '\t');
    else if (!hasModifierOrSpecialKey(key)) return chunkActions(input, paste);
    return [];
  }
  return specialKeyActions(input, key, raw) ?? chunkActions(input, paste);
}
