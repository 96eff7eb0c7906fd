/**
 * Cursor arithmetic over the editor's text: lines, graphemes and words. Offsets are UTF-16
 * indices into the text, as JavaScript strings use them.
 */

import { graphemes } from '../../text/graphemes.js';

/** Offset of the start of the line that contains `offset`. */
export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset of the end (the `\n` or the text's end) of the line that contains `offset`. */
export function lineEndOf(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline;
}

// A grapheme cluster (an emoji with modifiers and joiners, a flag, a letter with its marks) is far
// shorter than this; segmenting a window keeps each keystroke cheap in a huge input.
const CLUSTER_WINDOW = 256;

/** The offset one grapheme (a character as the user sees it, e.g. 👍🏽) before `offset`. */
export function previousGrapheme(text: string, offset: number): number {
  if (offset <= 0) return 0;
  const from = Math.max(0, offset - CLUSTER_WINDOW);
  const before = text.slice(from, offset);
  return from + (graphemes(before).containing(before.length - 1)?.index ?? before.length - 1);
}

/** The offset one grapheme after `offset`. */
export function nextGrapheme(text: string, offset: number): number {
  if (offset >= text.length) return text.length;
  const first = graphemes(text.slice(offset, offset + CLUSTER_WINDOW)).containing(0);
  return offset + (first?.segment.length ?? 1);
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** Start of the word before `offset` (skipping separators first), like readline's Alt+B. */
export function wordLeftOf(text: string, offset: number): number {
  let position = offset;
  while (position > 0 && !WORD_CHAR.test(text[position - 1])) position--;
  while (position > 0 && WORD_CHAR.test(text[position - 1])) position--;
  return position;
}

/** End of the word after `offset` (skipping separators first), like readline's Alt+F. */
export function wordRightOf(text: string, offset: number): number {
  let position = offset;
  while (position < text.length && !WORD_CHAR.test(text[position])) position++;
  while (position < text.length && WORD_CHAR.test(text[position])) position++;
  return position;
}

/** The offset on the neighbouring line (`direction` -1 up, +1 down) at the same column, clamped. */
export function verticalMove(text: string, offset: number, direction: -1 | 1): number | undefined {
  const start = lineStartOf(text, offset);
  const column = offset - start;
  if (direction === -1) {
    if (start === 0) return undefined;
    const previousStart = lineStartOf(text, start - 1);
    return Math.min(previousStart + column, start - 1);
  }
  const end = lineEndOf(text, offset);
  if (end === text.length) return undefined;
  const nextStart = end + 1;
  return Math.min(nextStart + column, lineEndOf(text, nextStart));
}
