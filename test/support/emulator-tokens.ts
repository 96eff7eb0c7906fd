/**
 * The emulator's deterministic "tokenizer": 4 characters make a token. Tests and the client's
 * accounting can predict every count the emulator reports.
 */

/** Characters per emulated token. */
export const CHARS_PER_TOKEN = 4;

/** Overhead per message for role markers of the chat template. */
export const TOKENS_PER_MESSAGE = 4;

/** Tokens of a text: Math.ceil(length / 4). */
export function countTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * Prompt tokens of a message list: the sum of countTokens(content) plus 4 per message, plus
 * `imageTokens` per image (a vision model's: Ollama counts images only where there is a projector).
 */
export function countPromptTokens(
  messages: readonly { role: string; content?: string; images?: unknown }[],
  imageTokens = 0,
): number {
  let total = 0;
  for (const message of messages) {
    const images = Array.isArray(message.images) ? message.images.length : 0;
    total += countTokens(message.content ?? '') + TOKENS_PER_MESSAGE + images * imageTokens;
  }
  return total;
}

/**
 * Tokens of the tool definitions a request carries: Ollama renders them into the prompt (as JSON
 * in most templates), so they count in `prompt_eval_count` and in the window like any message.
 */
export function countToolTokens(tools: unknown): number {
  return Array.isArray(tools) && tools.length > 0 ? countTokens(JSON.stringify(tools)) : 0;
}

/**
 * Splits text into the pieces it is streamed in: 4 characters each (or `pieceChars`), the last one
 * shorter.
 * A piece never ends between the halves of a surrogate pair (it is one shorter instead), so
 * every chunk is valid text; for BMP text the count equals countTokens(text).
 */
export function splitIntoTokens(text: string, pieceChars = CHARS_PER_TOKEN): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + pieceChars, text.length);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

const FILLER_WORDS = [
  'the ',
  'old ',
  'fox ',
  'ran ',
  'far ',
  'and ',
  'sat ',
  'by ',
  'a ',
  'big ',
  'oak ',
  'now ',
];

/**
 * `count` filler tokens of exactly 4 characters each, reading like prose with line breaks and
 * paragraphs (so markdown renderers see blocks), deterministic.
 */
export function fillerTokens(count: number): string[] {
  const pieces: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    if (i % 48 === 47) pieces[i] = 'end\n';
    else if (i % 48 === 0 && i > 0) pieces[i] = '\nSo ';
    else if (i % 12 === 11) pieces[i] = 'ok.\n';
    else pieces[i] = FILLER_WORDS[i % FILLER_WORDS.length].padEnd(CHARS_PER_TOKEN, ' ');
  }
  return pieces;
}
