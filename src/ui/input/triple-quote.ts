/**
 * `ollama run`'s multi-line messages: a message that starts with `"""` goes on over several lines
 * (Enter adds a line) until one ends with `"""`; the quotes themselves are not sent.
 */
const QUOTES = '"""';

/** Whether `text` opened a `"""` block that is not closed yet, so Enter adds a line instead of sending. */
export function isOpenTripleQuote(text: string): boolean {
  const start = text.trimStart();
  return start.startsWith(QUOTES) && !start.slice(QUOTES.length).trimEnd().endsWith(QUOTES);
}

/** The message inside a closed `"""…"""` block (line breaks next to the quotes dropped); other text as is. */
export function unwrapTripleQuote(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length < 2 * QUOTES.length || !trimmed.startsWith(QUOTES) || !trimmed.endsWith(QUOTES))
    return text;
  return trimmed
    .slice(QUOTES.length, -QUOTES.length)
    .replace(/^[ \t]*\n/, '')
    .replace(/\n[ \t]*$/, '');
}
