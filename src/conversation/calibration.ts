import type { WireMessage } from './message.js';
import {
  DEFAULT_CHARS_PER_TOKEN,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  messageWeightedLength,
  toolDefinitionsLength,
} from './token-estimate.js';

/** The sane range of chars per token: below 1 or above 8 a sample is noise, not a tokenizer. */
export const MIN_CHARS_PER_TOKEN = 1;
/** Upper end of the sane range of chars per token. */
export const MAX_CHARS_PER_TOKEN = 8;
/** Samples smaller than this many tokens say more about the template than the tokenizer. */
export const MIN_CALIBRATION_TOKENS = 200;
/** Weight of a new sample against what was learned so far (exponential smoothing). */
export const CALIBRATION_SMOOTHING = 0.3;

/** A prompt of known size and the token count the server reported for it. */
export interface CalibrationSample {
  /** Weighted chars of the prompt's text (see `weightedLength`). */
  chars: number;
  /** Tokens of that text: `prompt_eval_count` minus template overhead and images. */
  tokens: number;
}

/**
 * Learns chars-per-token from the server's real count for a prompt of known size: smoothed
 * against the previous value, clamped to a sane range; tiny or nonsensical samples are ignored
 * (the previous value, or the default, is returned).
 */
export function calibrateCharsPerToken(previous: number | undefined, sample: CalibrationSample): number {
  const base = previous !== undefined && Number.isFinite(previous) ? clamp(previous) : undefined;
  if (!(sample.tokens >= MIN_CALIBRATION_TOKENS) || !(sample.chars > 0))
    return base ?? DEFAULT_CHARS_PER_TOKEN;
  const observed = clamp(sample.chars / sample.tokens);
  if (base === undefined) return observed;
  return base + (observed - base) * CALIBRATION_SMOOTHING;
}

/**
 * The calibration sample for a request: the weighted chars of the messages and tool definitions sent, and the
 * server's `prompt_eval_count` minus what the estimator counts separately (per-message
 * overhead, images), so the ratio learned is the one `estimateTokens` divides by.
 */
export function calibrationSampleFor(
  view: readonly WireMessage[],
  promptEvalCount: number,
  tools: readonly unknown[] = [],
): CalibrationSample {
  let chars = toolDefinitionsLength(tools);
  let fixed = 0;
  for (const message of view) {
    chars += messageWeightedLength(message);
    fixed += MESSAGE_OVERHEAD_TOKENS + (message.images?.length ?? 0) * IMAGE_TOKENS;
  }
  return { chars, tokens: promptEvalCount - fixed };
}

function clamp(ratio: number): number {
  return Math.min(MAX_CHARS_PER_TOKEN, Math.max(MIN_CHARS_PER_TOKEN, ratio));
}
