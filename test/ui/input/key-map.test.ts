import type { Key } from 'ink';
import { describe, expect, it, vi } from 'vitest';
import { createPasteState, MAX_PASTE_CHARS } from '../../../src/ui/input/bracketed-paste.js';
import { isKeyIntent, keyToActions } from '../../../src/ui/input/key-map.js';

/** A Key as Ink's useInput builds it, all flags off unless given. */
function key(flags: Partial<Key> = {}): Key {
  return {
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
    super: false,
    hyper: false,
    capsLock: false,
    numLock: false,
    ...flags,
  };
}

describe('keyToActions: chunks', () => {
  it('types a plain chunk as one insert', () => {
    expect(keyToActions('hello', key())).toEqual([{ type: 'insert', text: 'hello' }]);
  });

  it('submits on a \\r that ends a typed chunk', () => {
    expect(keyToActions('hi\r', key())).toEqual([{ type: 'insert', text: 'hi' }, { type: 'submit' }]);
  });

  it('without bracketed paste: a chunk whose last line has no Enter is a paste, its \\r line breaks', () => {
    expect(keyToActions('a\rb', key())).toEqual([{ type: 'paste', text: 'a\nb', continuation: false }]);
    expect(keyToActions('a\rb\rc', key())).toEqual([{ type: 'paste', text: 'a\nb\nc', continuation: false }]);
    // No key sends CRLF: it is a pasted line break whichever way the chunk ends.
    expect(keyToActions('a\r\nb\r', key())).toEqual([{ type: 'insert', text: 'a\nb' }, { type: 'submit' }]);
  });

  it('without bracketed paste: lines each followed by Enter are each submitted (typed ahead)', () => {
    expect(keyToActions('hello one\rhello two\r', key())).toEqual([
      { type: 'insert', text: 'hello one' },
      { type: 'submit' },
      { type: 'insert', text: 'hello two' },
      { type: 'submit' },
    ]);
    expect(keyToActions('a\r\r', key())).toEqual([
      { type: 'insert', text: 'a' },
      { type: 'submit' },
      { type: 'submit' },
    ]);
  });

  it('once the terminal has bracketed a paste, every Enter outside the markers submits', () => {
    const paste = createPasteState();
    expect(keyToActions('[200~', key(), paste)).toEqual([]);
    expect(keyToActions('x\ry', key(), paste)).toEqual([]);
    expect(keyToActions('[201~', key(), paste)).toEqual([{ type: 'paste', text: 'x\ry' }]);
    expect(paste.bracketed).toBe(true);
    expect(keyToActions('one\rtw', key(), paste)).toEqual([
      { type: 'insert', text: 'one' },
      { type: 'submit' },
      { type: 'insert', text: 'tw' },
    ]);
  });

  it('maps control characters inside a chunk to their actions', () => {
    expect(keyToActions('ab\x7fc', key())).toEqual([
      { type: 'insert', text: 'ab' },
      { type: 'backspace' },
      { type: 'insert', text: 'c' },
    ]);
    expect(keyToActions('x\x03', key())).toEqual([{ type: 'insert', text: 'x' }, { type: 'interrupt' }]);
    expect(keyToActions('\x15\x0b', key())).toEqual([{ type: 'clear-line' }, { type: 'kill-to-end' }]);
  });

  it('keeps \\n (Ctrl+J) and tabs inside chunks as text and drops other controls', () => {
    expect(keyToActions('a\nb\tc\x00\x1b', key())).toEqual([{ type: 'insert', text: 'a\nb\tc' }]);
  });
});

describe('keyToActions: bracketed paste', () => {
  it('treats \\r inside paste markers in one raw chunk as a newline, not a submit', () => {
    expect(keyToActions('\x1b[200~a\rb\x1b[201~', key())).toEqual([{ type: 'paste', text: 'a\rb' }]);
  });

  it('tracks the markers across events as Ink delivers them (ESC stripped, separate events)', () => {
    const paste = createPasteState();
    expect(keyToActions('[200~', key(), paste)).toEqual([]);
    expect(paste.active).toBe(true);
    // The pasted text is gathered and handed over whole at the end marker: one edit, one render.
    expect(keyToActions('line one\rline two\r', key(), paste)).toEqual([]);
    expect(keyToActions('\r', key({ return: true }), paste)).toEqual([]);
    expect(keyToActions('\t', key({ tab: true }), paste)).toEqual([]);
    expect(keyToActions('[201~', key(), paste)).toEqual([
      { type: 'paste', text: 'line one\rline two\r\n\t' },
    ]);
    expect(paste.active).toBe(false);
    expect(keyToActions('\r', key({ return: true }), paste)).toEqual([{ type: 'submit' }]);
  });

  it('does not treat control keys inside a paste as intents', () => {
    const paste = { active: true, bracketed: true, text: '', over: 0 };
    expect(keyToActions('a\x03b', key(), paste)).toEqual([]);
    expect(keyToActions('', key({ upArrow: true }), paste)).toEqual([]);
    expect(keyToActions('[201~', key(), paste)).toEqual([{ type: 'paste', text: 'a\x03b' }]);
  });

  it('refuses a paste over MAX_PASTE_CHARS, keeping none of it while it arrives, and takes the next one', () => {
    const paste = createPasteState();
    const piece = 'x'.repeat(1024 * 1024);
    const pieces = MAX_PASTE_CHARS / piece.length + 2;
    expect(keyToActions(`\x1b[200~${piece}`, key(), paste)).toEqual([]);
    for (let i = 1; i < pieces; i++) keyToActions(piece, key(), paste);
    expect(paste.text).toBe('');
    expect(keyToActions(`${piece}\x1b[201~ok`, key(), paste)).toEqual([
      { type: 'paste-refused', chars: (pieces + 1) * piece.length },
      { type: 'insert', text: 'ok' },
    ]);
    expect(keyToActions('\x1b[200~small\x1b[201~', key(), paste)).toEqual([{ type: 'paste', text: 'small' }]);
  });

  it('ignores other unrecognised escape sequences instead of typing them', () => {
    expect(keyToActions('[1;2P', key())).toEqual([]);
  });

  it('types the text before a paste marker in the same chunk, then gathers the paste', () => {
    const paste = createPasteState();
    expect(keyToActions('ab\x1b[200~x\ry', key(), paste)).toEqual([{ type: 'insert', text: 'ab' }]);
    expect(keyToActions('z\x1b[201~c', key(), paste)).toEqual([
      { type: 'paste', text: 'x\ryz' },
      { type: 'insert', text: 'c' },
    ]);
  });

  it("takes the terminal's answer to the bracketed-paste query (DECRQM) and never types it", () => {
    const supported = createPasteState();
    expect(keyToActions('[?2004;1$y', key(), supported)).toEqual([]);
    expect(supported.bracketed).toBe(true);
    // Known: every Enter submits, even in a chunk that would look pasted otherwise.
    expect(keyToActions('a\rb', key(), supported)).toEqual([
      { type: 'insert', text: 'a' },
      { type: 'submit' },
      { type: 'insert', text: 'b' },
    ]);
    for (const answer of ['[?2004;2$y', '[?2004;3$y']) {
      const state = createPasteState();
      expect(keyToActions(answer, key(), state)).toEqual([]);
      expect(state.bracketed).toBe(true);
    }
    for (const answer of ['[?2004;0$y', '[?2004;4$y']) {
      const state = createPasteState();
      expect(keyToActions(answer, key(), state)).toEqual([]);
      expect(state.bracketed).toBe(false);
    }
  });

  it('joins the back-to-back reads of one unbracketed paste, not a key typed later', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const paste = createPasteState();
      expect(keyToActions('one\rtw', key(), paste)).toEqual([
        { type: 'paste', text: 'one\ntw', continuation: false },
      ]);
      vi.advanceTimersByTime(5);
      expect(keyToActions('o\rthree', key(), paste)).toEqual([
        { type: 'paste', text: 'o\nthree', continuation: true },
      ]);
      vi.advanceTimersByTime(200);
      expect(keyToActions('x', key(), paste)).toEqual([{ type: 'insert', text: 'x' }]);
      expect(keyToActions('four\rfive', key(), paste)).toEqual([
        { type: 'paste', text: 'four\nfive', continuation: false },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('Ctrl+O expands collapsed pastes', () => {
    expect(keyToActions('o', key({ ctrl: true }))).toEqual([{ type: 'expand-pastes' }]);
  });
});

describe('keyToActions: special keys', () => {
  it('tells Delete from Backspace by the raw sequence (Ink reports both as key.delete)', () => {
    const paste = createPasteState();
    expect(keyToActions('', key({ delete: true }), paste, '\x1b[3~')).toEqual([{ type: 'delete' }]);
    expect(keyToActions('', key({ delete: true, ctrl: true }), paste, '\x1b[3;5~')).toEqual([
      { type: 'delete' },
    ]);
    expect(keyToActions('', key({ delete: true }), paste, '\x7f')).toEqual([{ type: 'backspace' }]);
    expect(keyToActions('', key({ delete: true, meta: true }), paste, '\x1b\x7f')).toEqual([
      { type: 'delete-word-back' },
    ]);
  });

  it('treats a single DEL (key.delete) as backspace, and Alt+Backspace as delete-word-back', () => {
    expect(keyToActions('', key({ delete: true }))).toEqual([{ type: 'backspace' }]);
    expect(keyToActions('', key({ backspace: true }))).toEqual([{ type: 'backspace' }]);
    expect(keyToActions('', key({ delete: true, meta: true }))).toEqual([{ type: 'delete-word-back' }]);
  });

  it('Enter submits, Alt+Enter inserts a newline', () => {
    expect(keyToActions('\r', key({ return: true }))).toEqual([{ type: 'submit' }]);
    expect(keyToActions('\r', key({ return: true, meta: true }))).toEqual([{ type: 'newline' }]);
  });

  it('reports Ctrl+C, Ctrl+D and Esc as intents', () => {
    const interrupt = keyToActions('c', key({ ctrl: true }));
    expect(interrupt).toEqual([{ type: 'interrupt' }]);
    expect(isKeyIntent(interrupt[0])).toBe(true);
    expect(keyToActions('d', key({ ctrl: true }))).toEqual([{ type: 'exit' }]);
    expect(keyToActions('', key({ escape: true, meta: true }))).toEqual([{ type: 'escape' }]);
    expect(isKeyIntent({ type: 'submit' })).toBe(false);
  });

  it('maps arrows, word movement, home/end and readline control keys', () => {
    expect(keyToActions('', key({ leftArrow: true }))).toEqual([{ type: 'left' }]);
    expect(keyToActions('', key({ rightArrow: true }))).toEqual([{ type: 'right' }]);
    expect(keyToActions('', key({ leftArrow: true, ctrl: true }))).toEqual([{ type: 'word-left' }]);
    expect(keyToActions('', key({ rightArrow: true, meta: true }))).toEqual([{ type: 'word-right' }]);
    expect(keyToActions('b', key({ meta: true }))).toEqual([{ type: 'word-left' }]);
    expect(keyToActions('f', key({ meta: true }))).toEqual([{ type: 'word-right' }]);
    expect(keyToActions('', key({ upArrow: true }))).toEqual([{ type: 'up' }]);
    expect(keyToActions('', key({ downArrow: true }))).toEqual([{ type: 'down' }]);
    expect(keyToActions('', key({ home: true }))).toEqual([{ type: 'home' }]);
    expect(keyToActions('', key({ end: true }))).toEqual([{ type: 'end' }]);
    expect(keyToActions('a', key({ ctrl: true }))).toEqual([{ type: 'home' }]);
    expect(keyToActions('e', key({ ctrl: true }))).toEqual([{ type: 'end' }]);
    expect(keyToActions('u', key({ ctrl: true }))).toEqual([{ type: 'clear-line' }]);
    expect(keyToActions('k', key({ ctrl: true }))).toEqual([{ type: 'kill-to-end' }]);
    expect(keyToActions('w', key({ ctrl: true }))).toEqual([{ type: 'delete-word-back' }]);
    expect(keyToActions('x', key({ ctrl: true }))).toEqual([]);
  });

  it('Tab completes forwards, Shift+Tab backwards', () => {
    expect(keyToActions('', key({ tab: true }))).toEqual([{ type: 'complete', direction: 1 }]);
    expect(keyToActions('', key({ tab: true, shift: true }))).toEqual([{ type: 'complete', direction: -1 }]);
  });
});
