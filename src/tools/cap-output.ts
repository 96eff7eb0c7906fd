import { isLowSurrogate } from '../text/shorten.js';

/** The marker put where output was cut, e.g. `[… 12,345 characters cut …]`. */
export function cutNote(cutChars: number): string {
  return `[… ${cutChars.toLocaleString('en-US')} characters cut …]`;
}

/**
 * Shortens tool output to at most `maxChars` (when `maxChars` leaves room for the note) by keeping
 * its head and tail around a note of what was cut. Cuts prefer line boundaries so the model sees
 * whole lines; the full output stays in the transcript.
 */
export function capToolOutput(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // The note's length depends on the count, which depends on the note: the digits of text.length bound it.
  const noteBudget = `\n${cutNote(text.length)}\n`.length;
  const keep = Math.max(0, maxChars - noteBudget);
  let headEnd = Math.ceil(keep / 2);
  let tailStart = text.length - (keep - headEnd);
  headEnd = preferLineEnd(text, headEnd);
  tailStart = preferLineStart(text, tailStart);
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  return `${head}\n${cutNote(tailStart - headEnd)}\n${tail}`;
}

/** Moves a head cut back to just after a newline if one is in the head's second half; never splits a surrogate pair. */
function preferLineEnd(text: string, end: number): number {
  if (end <= 0) return 0;
  const newline = text.lastIndexOf('\n', end - 1);
  if (newline >= 0 && newline + 1 >= end / 2) return newline + 1;
  return isLowSurrogate(text.charCodeAt(end)) ? end - 1 : end;
}

/** Moves a tail cut forward to just after a newline if one is in the tail's first half; never splits a surrogate pair. */
function preferLineStart(text: string, start: number): number {
  const newline = text.indexOf('\n', start);
  if (newline >= 0 && newline + 1 - start <= (text.length - start) / 2) return newline + 1;
  return isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start;
}
