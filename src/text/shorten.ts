/** Collapses every run of whitespace (newlines included) to one space and trims. */
export function collapseWhitespace(text: string): string {
  // Same result as /\s+/g → ' ', but a run only matches when it needs changing (not a lone
  // space, which is most of any text): about 10× faster.
  return text.replace(/(?:[^\S ]| \s)\s*/g, ' ').trim();
}

/**
 * Cuts `text` to `maxChars`, appending a marker that says how much was cut, e.g.
 * `… [+1234 chars]`. Never splits a surrogate pair.
 */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars);
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return `${text.slice(0, end)}… [+${text.length - end} chars]`;
}

/**
 * Text for one line of a display: whitespace collapsed (newlines included) and, when longer than
 * `maxChars`, cut with an ellipsis. Never splits a surrogate pair.
 */
export function oneLine(text: string, maxChars = 80): string {
  const collapsed = collapseWhitespace(text);
  if (collapsed.length <= maxChars) return collapsed;
  let end = Math.max(0, maxChars - 1);
  if (end > 0 && isHighSurrogate(collapsed.charCodeAt(end - 1))) end--;
  return `${collapsed.slice(0, end).trimEnd()}…`;
}

/** The two ends of a text too long to show whole, and how many characters lie between them. */
export interface HeadAndTail {
  head: string;
  tail: string;
  omitted: number;
}

/**
 * The first `headChars` and last `tailChars` of `text` (each end moved to a line break when one is
 * near, never inside a surrogate pair), or undefined when the text is not longer than both.
 */
export function headAndTail(text: string, headChars: number, tailChars: number): HeadAndTail | undefined {
  if (text.length <= headChars + tailChars) return undefined;
  let headEnd = headChars;
  const lastBreak = text.lastIndexOf('\n', headEnd);
  if (lastBreak > headChars / 2) headEnd = lastBreak;
  else if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  let tailStart = text.length - tailChars;
  const nextBreak = text.indexOf('\n', tailStart);
  if (nextBreak !== -1 && nextBreak < tailStart + tailChars / 2) tailStart = nextBreak + 1;
  else if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  return { head: text.slice(0, headEnd), tail: text.slice(tailStart), omitted: tailStart - headEnd };
}

/** Whether a UTF-16 code unit opens a surrogate pair (cutting after it would leave half a char). */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Whether a UTF-16 code unit closes a surrogate pair (cutting before it would leave half a char). */
export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
