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

/** Wraps one line into rows of at most `width` columns, breaking after spaces where possible. */
function wrapLine(line: string, width: number): string[] {
  // Most of what models write is ASCII: it wraps by its characters, without segmenting and
  // measuring each one (the live area wraps its rows on every frame).
  const ascii = PRINTABLE_ASCII.test(line);
  const rows: string[] = [];
  let row = '';
  let rowWidth = 0;
  let lastSpace = -1;
  for (const char of ascii ? line : graphemeStrings(line)) {
    const columns = ascii ? 1 : charWidth(char);
    while (rowWidth + columns > width && row !== '') {
      if (lastSpace > 0) {
        rows.push(row.slice(0, lastSpace));
        row = row.slice(lastSpace + 1);
      } else {
        rows.push(row);
        row = '';
      }
      rowWidth = ascii ? row.length : displayWidth(row);
      lastSpace = -1;
    }
    row += char;
    rowWidth += columns;
    if (char === ' ') lastSpace = row.length - 1;
  }
  rows.push(row);
  return rows;
}

/** The rows `text` fills at `width` columns (each `\n` starts a row); tabs must be expanded first. */
export function wrapToRows(text: string, width: number): string[] {
  const columns = Math.max(1, Math.floor(width));
  return text.split('\n').flatMap((line) => wrapLine(line, columns));
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
    if (!beside || displayWidth(left) > maxLeft) return [left, ...rows];
    const [first = '', ...rest] = rows;
    return [left + ' '.repeat(side - displayWidth(left)) + first.slice(indent.length), ...rest];
  });
}
