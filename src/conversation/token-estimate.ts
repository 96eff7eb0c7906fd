import type { WireMessage } from './message.js';

/** Chars per token before any calibration: the usual figure for English prose and code. */
export const DEFAULT_CHARS_PER_TOKEN = 4;

/** Chat-template tokens every message costs on top of its text (role markers, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * Tokens one attached image is assumed to cost. Vision models spend a few hundred tokens per
 * image (llava 576, gemma3 256); counting the base64 text instead would overestimate a hundredfold.
 */
export const IMAGE_TOKENS = 768;

/**
 * Length of `text` in weighted chars, the unit `charsPerToken` is measured in: its UTF-8 byte
 * length. ASCII counts 1; other scripts count 2–4, because tokenizers spend far more tokens per
 * char on them (Cyrillic, Greek, Arabic ≈ 2 chars/token, CJK ≈ 1): weighting keeps the estimate
 * safe before calibration has seen the conversation's language. Native, so ≫ 50 MB/s.
 */
export function weightedLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Estimated tokens of a text: weighted chars over chars-per-token, rounded up. */
export function estimateTokens(text: string, charsPerToken: number = DEFAULT_CHARS_PER_TOKEN): number {
  if (text.length === 0) return 0;
  return tokensOfLength(weightedLength(text), charsPerToken);
}

/** Estimated tokens of `length` weighted chars. */
export function tokensOfLength(length: number, charsPerToken: number = DEFAULT_CHARS_PER_TOKEN): number {
  return Math.ceil(length / usableCharsPerToken(charsPerToken));
}

/** Weighted chars of everything a message puts into the prompt besides images and overhead. */
export function messageWeightedLength(message: WireMessage): number {
  let chars = weightedLength(message.content);
  if (message.tool_calls) {
    // Templates render tool calls as JSON: name plus arguments is what the model reads.
    for (const call of message.tool_calls) {
      chars +=
        weightedLength(call.function.name) + weightedLength(JSON.stringify(call.function.arguments ?? {}));
    }
  }
  if (message.tool_name) chars += weightedLength(message.tool_name);
  return chars;
}

/**
 * Estimated prompt tokens of one message as sent: overhead, text, tool calls, images.
 * Transcript `Message`s can be passed as they are: `thinking` is ignored, as it is never sent.
 */
export function estimateMessageTokens(
  message: WireMessage,
  charsPerToken: number = DEFAULT_CHARS_PER_TOKEN,
): number {
  const text = Math.ceil(messageWeightedLength(message) / usableCharsPerToken(charsPerToken));
  return MESSAGE_OVERHEAD_TOKENS + text + (message.images?.length ?? 0) * IMAGE_TOKENS;
}

/** Estimated prompt tokens of a list of messages (a model view). */
export function estimateMessagesTokens(
  messages: readonly WireMessage[],
  charsPerToken: number = DEFAULT_CHARS_PER_TOKEN,
): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message, charsPerToken);
  return total;
}

/**
 * Weighted chars of the tool definitions a request carries: templates render them into the
 * prompt (as JSON in most), so every request pays for them like for a message.
 */
export function toolDefinitionsLength(tools: readonly unknown[]): number {
  return tools.length ? weightedLength(JSON.stringify(tools)) : 0;
}

/** Estimated prompt tokens of the tool definitions a request carries. */
export function estimateToolDefinitionsTokens(
  tools: readonly unknown[],
  charsPerToken: number = DEFAULT_CHARS_PER_TOKEN,
): number {
  return tokensOfLength(toolDefinitionsLength(tools), charsPerToken);
}

/** A corrupt ratio (0, negative, NaN from a bad settings file) must not yield Infinity tokens. */
function usableCharsPerToken(charsPerToken: number): number {
  return Number.isFinite(charsPerToken) && charsPerToken > 0 ? charsPerToken : DEFAULT_CHARS_PER_TOKEN;
}
