/**
 * How plain text occupies terminal rows: display width of characters and word wrapping, so the
 * live area can be clipped to a number of rows before Ink lays it out.
 */

import stringWidth from 'string-width';
import { graphemes } from './graphemes.js';

// The widths Ink itself lays text out by (its string-width), so clipping and layout agree.
/** Columns one character (a grapheme: 👍🏽, é, 你) takes in a terminal. */
export function charWidth(char: string): number {
  return stringWidth(char);
}

/** Columns a string without control characters takes. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** Tabs to spaces: Ink measures a tab as zero columns, the terminal as up to eight. */
export function expandTabs(text: string): string {
  return text.includes('\t') ? text.replace(/\t/g, '    ') : text;
}

/** Printable ASCII: each character is a grapheme of one column. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The grapheme clusters of `text` as strings. */
function* graphemeStrings(text: string): Generator<string> {
  for (const { segment } of graphemes(text)) yield segment;
}

/** How continuation rows (the second and later rows of one line) start. */
export interface WrapOptions {
  /** Continuation rows start with the line's own leading whitespace (list items, indented blocks). */
  keepIndent?: boolean;
  /** Further columns continuation rows are indented by: a hanging indent (`[2] user: …`). */
  hang?: number;
}

/** The line's leading spaces, as a continuation row's prefix (capped so a row keeps room for text). */
function continuationPrefix(
  line: string,
  width: number,
  { keepIndent = false, hang = 0 }: WrapOptions,
): string {
  const leading = keepIndent ? (/^ */.exec(line)?.[0].length ?? 0) : 0;
  return ' '.repeat(Math.max(0, Math.min(leading + hang, Math.floor(width / 2))));
}

/**
 * Wraps one line into rows of at most `width` columns, breaking at spaces where possible. The
 * space a row is broken at is consumed by the break: no row starts with a space the text did
 * not have there (a word ending exactly at the edge left one on the next row).
 */
function wrapLine(line: string, width: number, options: WrapOptions): string[] {
  // Most of what models write is ASCII: it wraps by its characters, without segmenting and
  // measuring each one (the live area wraps its rows on every frame).
  const ascii = PRINTABLE_ASCII.test(line);
  const chars: ArrayLike<string> = ascii ? line : [...graphemeStrings(line)];
  const indent = continuationPrefix(line, width, options);
  const rows: string[] = [];
  let row = '';
  let rowWidth = 0;
  /** Where the row may be broken: the index of its last space after some text, or -1. */
  let lastSpace = -1;
  /** The index in `chars` of that space: the text after it is laid out again on the next row. */
  let lastSpaceChar = -1;
  /** Where the row's own text starts (after the continuation indent). */
  let rowStart = 0;
  /** The row has text, not only leading spaces: a space after it is a place to break. */
  let hasText = false;
  const startRow = () => {
    row = indent;
    rowStart = indent.length;
    rowWidth = indent.length;
    lastSpace = -1;
    hasText = false;
  };
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index];
    const columns = ascii ? 1 : charWidth(char);
    if (rowWidth + columns > width && row.length > rowStart) {
      if (char === ' ') {
        // The break falls on this space: it ends the row and is not carried over.
        rows.push(row);
        startRow();
        continue;
      }
      if (lastSpace > rowStart) {
        // The word after the last space moves down: its characters are laid out again from there,
        // so a word wider than the new row's room breaks there too.
        rows.push(row.slice(0, lastSpace));
        startRow();
        index = lastSpaceChar;
        continue;
      }
      rows.push(row);
      startRow();
    }
    // A row never starts (after its indent) with the spaces left at a break.
    if (char === ' ' && row.length === rowStart && rows.length > 0) continue;
    row += char;
    rowWidth += columns;
    if (char !== ' ') hasText = true;
    else if (hasText) {
      lastSpace = row.length - 1;
      lastSpaceChar = index;
    }
  }
  rows.push(row);
  return rows;
}

/**
 * The rows `text` fills at `width` columns (each `\n` starts a row); tabs must be expanded first.
 * The one wrapping of ochat's rows: everything it lays out itself goes through here, so the
 * terminal (or Ink) never has to wrap a row again.
 */
export function wrapToRows(text: string, width: number, options: WrapOptions = {}): string[] {
  const columns = Math.max(1, Math.floor(width));
  return text.split('\n').flatMap((line) => wrapLine(line, columns, options));
}

/** Below this many columns for the right column, it goes on its own rows under the left one. */
const MIN_RIGHT_COLUMNS = 24;

/**
 * Rows of `[left, right]` pairs laid out for `columns`: the right text wrapped in its own column,
 * continuation rows under it rather than under the left; a left wider than `maxLeft` puts its right
 * text on the rows below it, as does a terminal too narrow for two columns.
 */
export function twoColumnRows(
  pairs: readonly (readonly [string, string])[],
  columns: number,
  { maxLeft = 28, gap = 2 }: { maxLeft?: number; gap?: number } = {},
): string[] {
  const fitting = pairs.map(([left]) => displayWidth(left)).filter((width) => width <= maxLeft);
  const side = Math.max(0, ...fitting) + gap;
  const beside = columns - side >= MIN_RIGHT_COLUMNS;
  const indent = ' '.repeat(beside ? side : Math.min(side, 6));
  return pairs.flatMap(([left, right]) => {
    const rows = wrapToRows(right, Math.max(10, columns - indent.length)).map((row) => indent + row);
    if (!beside || displayWidth(left) > maxLeft) {
      // A left too wide for the rows (a long usage line) wraps as well, under itself.
      const leftRows = left === '' ? [] : wrapToRows(left, columns, { keepIndent: true, hang: 2 });
      return [...leftRows, ...rows];
    }
    const [first = '', ...rest] = rows;
    return [left + ' '.repeat(side - displayWidth(left)) + first.slice(indent.length), ...rest];
  });
}
