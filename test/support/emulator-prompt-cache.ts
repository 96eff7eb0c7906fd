/**
 * Ollama's runner prefix cache, as the emulator keeps it. The runner holds one KV cache slot per
 * loaded model (OLLAMA_NUM_PARALLEL=1): the tokens of the last prompt and of the reply it
 * generated. A new prompt's longest common prefix with them is not evaluated again; at least its
 * last token always is. `prompt_eval_count` stays the whole prompt (Ollama ≥ 0.30 adds the cached
 * tokens back in); `prompt_eval_cached_count` says how many of them came from the cache.
 * A reload (first use, a new num_ctx, unload, expiry) starts with an empty slot.
 *
 * The prompt is modelled as the template renders it: the tool definitions first (most templates
 * put them in the system block), then each message — so a different tool list changes the prefix
 * from the very first token, as it does on the real server.
 */
import { CHARS_PER_TOKEN, countTokens, countToolTokens, TOKENS_PER_MESSAGE } from './emulator-tokens.js';
import type { ChatMessageLike } from './emulator-types.js';

/** One rendered piece of a prompt: what it says (compared whole) and the tokens it takes. */
export interface PromptSegment {
  key: string;
  /** For a message: its role and content, so a changed message still shares its first tokens. */
  role?: string;
  content?: string;
  tokens: number;
}

/** The prompt of a request as rendered segments: the tool definitions, then the messages. */
export function promptSegments(
  tools: unknown,
  messages: readonly ChatMessageLike[],
  imageTokens: number,
): PromptSegment[] {
  const segments: PromptSegment[] = [];
  const toolTokens = countToolTokens(tools);
  if (toolTokens > 0) segments.push({ key: `tools ${JSON.stringify(tools)}`, tokens: toolTokens });
  for (const message of messages) segments.push(messageSegment(message, imageTokens));
  return segments;
}

/** A message's segment; tool calls compared by name and arguments (ids are not rendered). */
function messageSegment(message: ChatMessageLike, imageTokens: number): PromptSegment {
  const content = message.content ?? '';
  const images = Array.isArray(message.images) ? message.images : [];
  const calls = Array.isArray(message.tool_calls)
    ? message.tool_calls.map((call: { function?: { name?: unknown; arguments?: unknown } }) => [
        call?.function?.name,
        call?.function?.arguments,
      ])
    : [];
  return {
    key: JSON.stringify([message.role, content, message.tool_name ?? null, calls, images]),
    role: message.role,
    content,
    tokens: countTokens(content) + TOKENS_PER_MESSAGE + images.length * imageTokens,
  };
}

/** The reply as the cache holds it after generation: what was generated, thinking first. */
export function replySegment(reply: {
  content: string;
  thinking?: string;
  tool_calls?: unknown[];
}): PromptSegment {
  // Thinking was generated but is not rendered back into the history: the prefix ends there.
  const content = reply.thinking ? `${reply.thinking}${reply.content}` : reply.content;
  return messageSegment({ role: 'assistant', content, tool_calls: reply.tool_calls }, 0);
}

/**
 * Tokens of `prompt` the cache holds: whole segments equal to the cached ones, then, in the first
 * segment that differs, the role marker and the characters the two contents share. Capped one
 * below the prompt's size: the runner always evaluates the last token.
 */
export function cachedTokens(cached: readonly PromptSegment[], prompt: readonly PromptSegment[]): number {
  let tokens = 0;
  let total = 0;
  for (const segment of prompt) total += segment.tokens;
  for (let i = 0; i < prompt.length && i < cached.length; i++) {
    const now = prompt[i];
    const before = cached[i];
    if (now.key === before.key) {
      tokens += now.tokens;
      continue;
    }
    if (now.role !== undefined && now.role === before.role) {
      const shared = commonPrefixLength(now.content ?? '', before.content ?? '');
      tokens += Math.min(now.tokens - 1, TOKENS_PER_MESSAGE / 2 + Math.floor(shared / CHARS_PER_TOKEN));
    }
    break;
  }
  return Math.max(0, Math.min(tokens, total - 1));
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
