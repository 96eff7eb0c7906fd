import { countPromptTokens } from './emulator-tokens.js';
import type { ChatMessageLike } from './emulator-types.js';

/** What survives of a prompt once it is fitted into num_ctx. */
export interface FittedPrompt {
  /** The messages the model sees: system messages, then a suffix of the others. */
  kept: ChatMessageLike[];
  /** countPromptTokens(kept) plus the tool definitions, capped at num_ctx (the server cuts tokens when one message is too big). */
  promptEvalCount: number;
  /** Some messages were dropped (or the rest was cut to num_ctx). */
  truncated: boolean;
}

/**
 * Ollama's silent truncation: while the prompt exceeds num_ctx, drop the oldest non-system
 * message, never the last one. If what remains is still too big, the count is capped at num_ctx
 * (the runner cuts tokens inside the prompt). No error, no warning — HTTP 200 as usual.
 */
export function fitToContext(
  messages: readonly ChatMessageLike[],
  numCtx: number,
  /** Tokens in every candidate prompt besides the messages: the tool definitions. */
  fixedTokens = 0,
  /** Tokens each image costs: IMAGE_TOKENS for a vision model, 0 for others (as in Ollama). */
  imageTokens = 0,
): FittedPrompt {
  const kept = [...messages];
  let truncated = false;
  let tokens = fixedTokens + countPromptTokens(kept, imageTokens);
  while (tokens > numCtx) {
    const oldest = kept.findIndex((message, i) => message.role !== 'system' && i < kept.length - 1);
    if (oldest < 0) break;
    kept.splice(oldest, 1);
    truncated = true;
    tokens = fixedTokens + countPromptTokens(kept, imageTokens);
  }
  if (tokens > numCtx) return { kept, promptEvalCount: numCtx, truncated: true };
  return { kept, promptEvalCount: tokens, truncated };
}
