import { describe, expect, it } from 'vitest';
import { INPUT_HISTORY_LIMIT } from '../../../src/config/defaults.js';
import {
  createEditorState,
  type EditorAction,
  type EditorState,
  editorReducer,
} from '../../../src/ui/input/editor-state.js';
import {
  COLLAPSE_CHARS,
  COLLAPSE_LINES,
  chipCharacter,
  labelChips,
  shouldCollapse,
} from '../../../src/ui/input/paste-chips.js';

const COMMANDS = [
  { name: 'compact', aliases: [], summary: 'Compact the conversation now', usage: '/compact [focus]' },
  { name: 'context', aliases: ['ctx'], summary: 'Show context usage', usage: '/context' },
  { name: 'help', aliases: ['h', '?'], summary: 'List commands', usage: '/help' },
  { name: 'quit', aliases: ['exit', 'q'], summary: 'Leave ochat', usage: '/quit' },
];

function run(state: EditorState, ...actions: EditorAction[]): EditorState {
  return actions.reduce(editorReducer, state);
}

/** An editor holding `text` with the cursor at the `|` marker (or at the end). */
function editing(textWithCursor: string, options: Parameters<typeof createEditorState>[0] = {}): EditorState {
  const cursor = textWithCursor.includes('|') ? textWithCursor.indexOf('|') : textWithCursor.length;
  const text = textWithCursor.replace('|', '');
  return { ...run(createEditorState(options), { type: 'insert', text }), cursor };
}

/** The text with `|` at the cursor, for compact assertions. */
function show(state: EditorState): string {
  return `${state.text.slice(0, state.cursor)}|${state.text.slice(state.cursor)}`;
}

describe('editorReducer: editing', () => {
  it('inserts at the cursor', () => {
    expect(show(run(editing('helo|'), { type: 'left' }, { type: 'insert', text: 'l' }))).toBe('hell|o');
  });

  it('inserts pasted text with line breaks, normalising \\r\\n and \\r and dropping escapes', () => {
    const state = run(createEditorState(), { type: 'insert', text: 'a\r\nb\rc\x1b[31md\x07' });
    expect(state.text).toBe('a\nb\ncd');
    expect(state.cursor).toBe(6);
  });

  it('backspace and delete remove one code point, never half an emoji', () => {
    expect(show(run(editing('ab|c'), { type: 'backspace' }))).toBe('a|c');
    expect(show(run(editing('ab|c'), { type: 'delete' }))).toBe('ab|');
    expect(show(run(editing('x🎉|'), { type: 'backspace' }))).toBe('x|');
    expect(show(run(editing('|🎉x'), { type: 'delete' }))).toBe('|x');
    expect(run(editing('|abc'), { type: 'backspace' }).text).toBe('abc');
    expect(run(editing('abc|'), { type: 'delete' }).text).toBe('abc');
  });

  it('edits by grapheme: a skin-toned, joined or flag emoji and a letter with its mark go whole', () => {
    for (const grapheme of ['👍🏽', '👨‍👩‍👧', '🇯🇵', 'e\u0301']) {
      expect(show(run(editing(`x${grapheme}|`), { type: 'backspace' }))).toBe('x|');
      expect(show(run(editing(`|${grapheme}x`), { type: 'delete' }))).toBe('|x');
      expect(show(run(editing(`a${grapheme}|`), { type: 'left' }))).toBe(`a|${grapheme}`);
      expect(show(run(editing(`|${grapheme}a`), { type: 'right' }))).toBe(`${grapheme}|a`);
    }
    // Far into a long input, too.
    const long = `${'word '.repeat(2000)}👍🏽|`;
    expect(show(run(editing(long), { type: 'backspace' }))).toBe(`${'word '.repeat(2000)}|`);
  });

  it('moves left/right by code points and clamps at the ends', () => {
    expect(show(run(editing('a🎉|'), { type: 'left' }))).toBe('a|🎉');
    expect(show(run(editing('|🎉'), { type: 'right' }))).toBe('🎉|');
    expect(show(run(editing('|ab'), { type: 'left' }))).toBe('|ab');
    expect(show(run(editing('ab|'), { type: 'right' }))).toBe('ab|');
  });

  it('home/end go to the ends of the current line', () => {
    expect(show(run(editing('one\ntw|o\nthree'), { type: 'home' }))).toBe('one\n|two\nthree');
    expect(show(run(editing('one\ntw|o\nthree'), { type: 'end' }))).toBe('one\ntwo|\nthree');
  });

  it('moves and deletes by words', () => {
    expect(show(run(editing('hello big world|'), { type: 'word-left' }))).toBe('hello big |world');
    expect(show(run(editing('hello big world|'), { type: 'word-left' }, { type: 'word-left' }))).toBe(
      'hello |big world',
    );
    expect(show(run(editing('|hello, world'), { type: 'word-right' }, { type: 'word-right' }))).toBe(
      'hello, world|',
    );
    expect(show(run(editing('rm -rf foo|'), { type: 'delete-word-back' }))).toBe('rm -rf |');
  });

  it('clear-line kills to the start of the line, kill-to-end to its end', () => {
    expect(show(run(editing('keep\nsome te|xt'), { type: 'clear-line' }))).toBe('keep\n|xt');
    expect(show(run(editing('keep\nsome te|xt\nnext'), { type: 'kill-to-end' }))).toBe(
      'keep\nsome te|\nnext',
    );
  });

  it('newline inserts a line break (Alt+Enter)', () => {
    expect(show(run(editing('ab|'), { type: 'newline' }, { type: 'insert', text: 'c' }))).toBe('ab\nc|');
  });

  it('set-text replaces everything', () => {
    expect(show(run(editing('old'), { type: 'set-text', text: '/help' }))).toBe('/help|');
  });
});

describe('editorReducer: submit', () => {
  it('returns the text, clears the input and pushes history', () => {
    const state = run(editing('hello'), { type: 'submit' });
    expect(state.submitted).toBe('hello');
    expect(state.text).toBe('');
    expect(state.cursor).toBe(0);
    expect(state.history).toEqual(['hello']);
    expect(state.historyIndex).toBe(1);
  });

  it('clears `submitted` on the next action', () => {
    const state = run(editing('hello'), { type: 'submit' }, { type: 'insert', text: 'x' });
    expect(state.submitted).toBeUndefined();
  });

  it('turns a trailing backslash into a newline instead of submitting', () => {
    const state = run(editing('first line\\'), { type: 'submit' });
    expect(state.submitted).toBeUndefined();
    expect(show(state)).toBe('first line\n|');
    const sent = run(state, { type: 'insert', text: 'second' }, { type: 'submit' });
    expect(sent.submitted).toBe('first line\nsecond');
  });

  it('goes on over lines after """ until a line ends with """, sending what is inside', () => {
    let state = run(editing('"""'), { type: 'submit' });
    expect(state.submitted).toBeUndefined();
    state = run(state, { type: 'insert', text: 'line one' }, { type: 'submit' });
    expect(show(state)).toBe('"""\nline one\n|');
    state = run(state, { type: 'insert', text: '  line two"""' }, { type: 'submit' });
    expect(state.submitted).toBe('line one\n  line two');
    // History keeps what was typed, quotes included, so ↑ brings back the same block.
    expect(state.history.at(-1)).toBe('"""\nline one\n  line two"""');
    expect(run(editing('"""one line"""'), { type: 'submit' }).submitted).toBe('one line');
    expect(run(editing('""""""'), { type: 'submit' }).submitted).toBeUndefined();
  });

  it('ignores a blank input', () => {
    const state = run(editing('   \n '), { type: 'submit' });
    expect(state.submitted).toBeUndefined();
    expect(state.history).toEqual([]);
  });

  it('submits multi-line pasted text whole', () => {
    expect(run(createEditorState(), { type: 'insert', text: 'a\nb' }, { type: 'submit' }).submitted).toBe(
      'a\nb',
    );
  });

  it('does not repeat the same entry twice in a row in history', () => {
    const state = run(editing('x'), { type: 'submit' }, { type: 'insert', text: 'x' }, { type: 'submit' });
    expect(state.history).toEqual(['x']);
  });
});

describe('editorReducer: history and vertical movement', () => {
  const withHistory = () => createEditorState({ history: ['first', 'second\nline'] });

  it('keeps as many entries as are remembered across runs, the newest', () => {
    const lines = Array.from({ length: INPUT_HISTORY_LIMIT + 5 }, (_, i) => `line ${i}`);
    const loaded = createEditorState({ history: lines });
    expect(loaded.history).toEqual(lines.slice(-INPUT_HISTORY_LIMIT));
    const state = run(loaded, { type: 'insert', text: 'new' }, { type: 'submit' });
    expect(state.history).toHaveLength(INPUT_HISTORY_LIMIT);
    expect(state.history.at(-1)).toBe('new');
  });

  it('up recalls older entries, keeping the unsent draft for down', () => {
    let state = run(withHistory(), { type: 'insert', text: 'draft' }, { type: 'up' });
    expect(state.text).toBe('second\nline');
    expect(state.cursor).toBe(state.text.length);
    state = run(state, { type: 'up' }); // moves up inside the multi-line entry first
    expect(state.text).toBe('second\nline');
    expect(state.cursor).toBe(4);
    state = run(state, { type: 'up' });
    expect(state.text).toBe('first');
    expect(run(state, { type: 'up' }).text).toBe('first'); // oldest: stays
    state = run(state, { type: 'down' }, { type: 'down' });
    expect(state.text).toBe('draft');
    expect(state.historyIndex).toBe(2);
    expect(run(state, { type: 'down' }).text).toBe('draft');
  });

  it('up/down move between lines of a multi-line input at the same column, clamped', () => {
    const state = editing('a long line\nab|c\nxy');
    expect(show(run(state, { type: 'up' }))).toBe('a |long line\nabc\nxy');
    expect(show(run(state, { type: 'down' }))).toBe('a long line\nabc\nxy|');
  });

  it('submitting appends to the history and resets browsing', () => {
    const state = run(withHistory(), { type: 'up' }, { type: 'up' }, { type: 'up' }, { type: 'submit' });
    expect(state.submitted).toBe('first');
    expect(state.history).toEqual(['first', 'second\nline', 'first']);
    expect(run(state, { type: 'up' }).text).toBe('first');
  });
});

describe('editorReducer: slash-command completion', () => {
  const start = (text: string) => editing(text, { commands: COMMANDS });

  it('lists matching commands (by name or alias) while a bare /word is typed', () => {
    expect(start('/c').completion?.matches.map((command) => command.value)).toEqual(['compact', 'context']);
    expect(start('/ex').completion?.matches.map((command) => command.value)).toEqual(['quit']);
    expect(start('/').completion?.matches).toHaveLength(4);
    expect(start('/zzz').completion).toBeUndefined();
    expect(start('/help me').completion).toBeUndefined();
    expect(start('hello /c').completion).toBeUndefined();
  });

  it('completes a unique match with a trailing space and closes the list', () => {
    const state = run(start('/he'), { type: 'complete' });
    expect(show(state)).toBe('/help |');
    expect(state.completion).toBeUndefined();
  });

  it('completes to the common prefix of several matches first', () => {
    const state = run(start('/c'), { type: 'complete' });
    expect(show(state)).toBe('/co|');
    expect(state.completion?.matches).toHaveLength(2);
  });

  it('then cycles through the matches, keeping the list; Shift+Tab goes back', () => {
    let state = run(start('/co'), { type: 'complete' });
    expect(state.text).toBe('/compact');
    expect(state.completion?.selected).toBe(0);
    state = run(state, { type: 'complete' });
    expect(state.text).toBe('/context');
    expect(state.completion?.matches).toHaveLength(2);
    state = run(state, { type: 'complete' });
    expect(state.text).toBe('/compact');
    expect(run(state, { type: 'complete', direction: -1 }).text).toBe('/context');
  });

  it('does nothing without a completion list, and can be dismissed', () => {
    expect(run(start('hello'), { type: 'complete' }).text).toBe('hello');
    expect(run(start('/c'), { type: 'dismiss-completion' }).completion).toBeUndefined();
  });

  it('typing after cycling recomputes the list', () => {
    const state = run(start('/co'), { type: 'complete' }, { type: 'backspace' }, { type: 'backspace' });
    expect(state.text).toBe('/compa');
    expect(state.completion?.matches.map((command) => command.value)).toEqual(['compact']);
    expect(state.completion?.selected).toBe(-1);
  });
});

describe('editorReducer: commands without aliases', () => {
  it('completes commands whose aliases are omitted (as SlashCommand allows)', () => {
    const state = createEditorState({
      commands: [{ name: 'summary', summary: 'Show the summary', usage: '/summary' }],
    });
    expect(run(state, { type: 'insert', text: '/su' }, { type: 'complete' }).text).toBe('/summary ');
  });
});

describe('editorReducer: argument completion', () => {
  const tools = {
    name: 'tools',
    summary: 'Tools',
    usage: '/tools [on|off <name>]',
    complete: (args: string) =>
      /^(on|off)\s/.test(args)
        ? [
            { value: 'read_file', summary: 'Read a file' },
            { value: 'run_command', summary: 'Run a command' },
          ]
        : [{ value: 'on' }, { value: 'off' }],
  };
  const start = (text: string) => editing(text, { commands: [...COMMANDS, tools] });

  it("lists the command's candidates for the last word once its name is typed", () => {
    expect(start('/tools ').completion).toMatchObject({ kind: 'argument', head: '/tools ', prefix: '' });
    expect(start('/tools o').completion?.matches.map((entry) => entry.value)).toEqual(['on', 'off']);
    expect(start('/tools on r').completion?.matches.map((entry) => entry.value)).toEqual([
      'read_file',
      'run_command',
    ]);
    expect(start('/TOOLS on RE').completion?.matches.map((entry) => entry.value)).toEqual(['read_file']);
    // Commands without argument completion, and a word already complete, offer nothing.
    expect(start('/help me').completion).toBeUndefined();
    expect(start('/tools on read_file').completion).toBeUndefined();
  });

  it('Tab completes the last word, to a common prefix first, then cycles', () => {
    expect(run(start('/tools of'), { type: 'complete' }).text).toBe('/tools off ');
    let state = run(start('/tools on '), { type: 'complete' });
    expect(state.text).toBe('/tools on r');
    state = run(state, { type: 'complete' });
    expect(state.text).toBe('/tools on read_file');
    state = run(state, { type: 'complete' });
    expect(state.text).toBe('/tools on run_command');
    expect(state.completion?.matches).toHaveLength(2);
  });
});

describe('editorReducer: @path completion', () => {
  const files: Record<string, string[]> = {
    '': ['notes.md', 'node_modules/', 'src/'],
    'src/': ['src/app.ts', 'src/api/'],
  };
  const completePath = (partial: string) => {
    const dir = partial.slice(0, partial.lastIndexOf('/') + 1);
    return (files[dir] ?? []).map((value) => ({ value }));
  };
  /** `before` typed with the cursor after it and `after` behind the cursor. */
  const typed = (before: string, after = '') =>
    run(
      createEditorState({ completePath }),
      { type: 'insert', text: after },
      { type: 'home' },
      {
        type: 'insert',
        text: before,
      },
    );

  it('lists paths for the @word at the cursor, anywhere in the text', () => {
    expect(typed('see @no').completion).toMatchObject({ kind: 'path', head: 'see @', prefix: 'no' });
    expect(typed('see @no').completion?.matches.map((e) => e.value)).toEqual(['notes.md', 'node_modules/']);
    expect(typed('@s', ' and more').completion).toMatchObject({ prefix: 's', tail: ' and more' });
    // Not after a word without @, not in a slash command, not for a complete name, not without a lister.
    expect(typed('see no').completion).toBeUndefined();
    expect(typed('me@no').completion).toBeUndefined();
    expect(typed('/compact @no').completion).toBeUndefined();
    expect(typed('@notes.md').completion).toBeUndefined();
    expect(run(createEditorState(), { type: 'insert', text: '@no' }).completion).toBeUndefined();
  });

  it('Tab completes a file with a space, a directory without one and then lists its entries', () => {
    const file = run(typed('read @notes'), { type: 'complete' });
    expect(show(file)).toBe('read @notes.md |');
    expect(file.completion).toBeUndefined();
    const dir = run(typed('@sr'), { type: 'complete' });
    expect(show(dir)).toBe('@src/|');
    expect(dir.completion?.matches.map((e) => e.value)).toEqual(['src/app.ts', 'src/api/']);
    expect(show(run(dir, { type: 'complete' }))).toBe('@src/ap|');
  });

  it('keeps the text after the cursor when completing in the middle', () => {
    expect(show(run(typed('compare @notes', ' with the plan'), { type: 'complete' }))).toBe(
      'compare @notes.md| with the plan',
    );
    const cycled = run(typed('@no', ' x'), { type: 'complete' });
    expect(show(cycled)).toBe('@notes.md| x');
    expect(show(run(cycled, { type: 'complete' }))).toBe('@node_modules/| x');
  });
});

describe('editorReducer: large pastes as chips', () => {
  const LOG = Array.from({ length: 1523 }, (_, i) => `log line ${i + 1}`).join('\r');
  const LOG_SENT = LOG.replaceAll('\r', '\n');

  it('collapses a paste over the line or size limit into one chip, sent in full', () => {
    const state = run(editing('see '), { type: 'paste', text: LOG }, { type: 'insert', text: ' why?' });
    expect(state.text).toHaveLength('see '.length + 2 + ' why?'.length); // the chip is one character
    expect(labelChips(state.text, state.pastes)).toBe('see [pasted 1,523 lines] why?');
    const sent = run(state, { type: 'submit' });
    expect(sent.submitted).toBe(`see ${LOG_SENT} why?`);
  });

  it('keeps a small paste as text, and a long single line as a chip counted in characters', () => {
    expect(run(editing(''), { type: 'paste', text: 'a\rb' }).text).toBe('a\nb');
    const line = 'x'.repeat(COLLAPSE_CHARS + 1);
    const state = run(editing(''), { type: 'paste', text: line });
    expect(labelChips(state.text, state.pastes)).toBe('[pasted 2,001 characters]');
    expect(shouldCollapse('l\n'.repeat(COLLAPSE_LINES - 1))).toBe(false);
    expect(shouldCollapse('l\n'.repeat(COLLAPSE_LINES))).toBe(true);
  });

  it('edits around a chip as one character: Backspace removes it whole, arrows step over it', () => {
    let state = run(editing(''), { type: 'paste', text: LOG }, { type: 'insert', text: 'x' });
    state = run(state, { type: 'left' }, { type: 'left' });
    expect(state.cursor).toBe(0);
    state = run(state, { type: 'right' }, { type: 'backspace' });
    expect(state.text).toBe('x');
    expect(run(state, { type: 'submit' }).submitted).toBe('x');
  });

  it('Ctrl+O (expand-pastes) puts the pasted text in the prompt, cursor after it', () => {
    const state = run(
      editing('a '),
      { type: 'paste', text: 'l1\rl2\r'.repeat(6) },
      { type: 'insert', text: ' b' },
    );
    const expanded = run(state, { type: 'left' }, { type: 'left' }, { type: 'expand-pastes' });
    expect(expanded.text).toBe(`a ${'l1\nl2\n'.repeat(6)} b`);
    expect(expanded.cursor).toBe(`a ${'l1\nl2\n'.repeat(6)}`.length);
  });

  it('joins the reads of one unbracketed paste into the chip before the cursor', () => {
    const first = run(editing(''), { type: 'paste', text: LOG });
    const next = run(first, { type: 'paste', text: '\rmore\rlines', continuation: true });
    expect(next.text).toBe(first.text);
    expect(run(next, { type: 'submit' }).submitted).toBe(`${LOG_SENT}\nmore\nlines`);
  });

  it('never takes a chip character from typed or pasted text', () => {
    const state = run(editing(''), { type: 'insert', text: `a${chipCharacter(0)}b` });
    expect(state.text).toBe('ab');
  });

  it('recalls a sent message with its chip from history, and sends it in full again', () => {
    const sent = run(editing(''), { type: 'paste', text: LOG }, { type: 'submit' });
    const recalled = run(sent, { type: 'up' });
    expect(labelChips(recalled.text, recalled.pastes)).toBe('[pasted 1,523 lines]');
    expect(run(recalled, { type: 'submit' }).submitted).toBe(LOG_SENT);
  });

  it("shows a large entry of an earlier run's history as a chip", () => {
    const state = run(editing(''), { type: 'load-history', history: ['short', LOG_SENT] });
    const recalled = run(state, { type: 'up' });
    expect(labelChips(recalled.text, recalled.pastes)).toBe('[pasted 1,523 lines]');
    expect(run(recalled, { type: 'submit' }).submitted).toBe(LOG_SENT);
    expect(run(recalled, { type: 'up' }, { type: 'up' }).text).toBe('short');
  });

  it('forgets pasted texts that nothing refers to any more', () => {
    const cleared = run(
      editing(''),
      { type: 'paste', text: LOG },
      { type: 'clear-line' },
      { type: 'insert', text: 'x' },
    );
    expect(run(cleared, { type: 'submit' }).pastes.size).toBe(0);
  });
});
