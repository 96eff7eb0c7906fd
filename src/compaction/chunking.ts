import { MESSAGE_OVERHEAD_TOKENS } from '../conversation/token-estimate.js';
import type { Ask } from './ask.js';
import { buildSummarizerRequest } from './summarizer-prompt.js';
import { cleanNarrative, trimNarrative } from './summary.js';
import { capText } from './text.js';

/**
 * Share of the summarizer's window the request may fill: estimates are estimates, and over the
 * window Ollama silently truncates the very input compaction exists to keep.
 */
export const SUMMARIZER_WINDOW_MARGIN = 0.9;

/** A chunk smaller than this cannot carry a conversation: the summarizer's window is too small. */
export const MIN_CHUNK_TOKENS = 64;

/** A compaction failure that retrying cannot fix (a window or budget too small for the work). */
export class CompactionLimitError extends Error {
  override readonly name = 'CompactionLimitError';
}

/**
 * Splits lines into consecutive chunks whose lines (each costing `estimate(line + '\n')`) fit
 * `maxChunkTokens`. Every line lands in exactly one chunk, in order; a line too long for any
 * chunk is cut to fit, with a marker saying how much was cut.
 */
export function chunkLines(
  lines: readonly string[],
  maxChunkTokens: number,
  estimate: (text: string) => number,
): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let used = 0;
  for (const original of lines) {
    let line = original;
    let cost = estimate(`${line}\n`);
    if (cost > maxChunkTokens) {
      line = fitLine(original, maxChunkTokens, estimate);
      cost = estimate(`${line}\n`);
    }
    if (current.length && used + cost > maxChunkTokens) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(line);
    used += cost;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/** Tokens of lines a summarizer request can carry, given everything else it must hold. */
export function chunkCapacity(input: {
  summarizerNumCtx: number;
  summaryTokens: number;
  previousNarrative?: string;
  rules?: string;
  focus?: string;
  estimate: (text: string) => number;
}): number {
  const { estimate, summaryTokens } = input;
  const frame = buildSummarizerRequest({
    ...input,
    previousNarrative: 'x',
    lines: [],
    maxTokens: summaryTokens,
  });
  // The running narrative is trimmed to the summary budget; the first one may be larger.
  const narrative = Math.max(summaryTokens, estimate(input.previousNarrative ?? ''));
  return (
    Math.floor(input.summarizerNumCtx * SUMMARIZER_WINDOW_MARGIN) -
    summaryTokens -
    estimate(frame.system) -
    estimate(frame.prompt) -
    narrative -
    2 * MESSAGE_OVERHEAD_TOKENS
  );
}

/**
 * Summarizes the lines with the injected `ask`: in one request when they fit the summarizer's
 * window, otherwise chunk by chunk in order, each chunk folded into the running narrative
 * (the previous narrative is always the first input). Throws when the summarizer returns an
 * empty summary or its window cannot hold a useful chunk.
 */
export async function summarizeLines(input: {
  lines: readonly string[];
  previousNarrative?: string;
  rules?: string;
  focus?: string;
  ask: Ask;
  /** The summary budget: the summarizer's `num_predict` and the cap of every running narrative. */
  summaryTokens: number;
  /** How long the final narrative should be, told to the summarizer (≤ summaryTokens). */
  targetTokens: number;
  summarizerNumCtx: number;
  estimate: (text: string) => number;
  signal?: AbortSignal;
}): Promise<string> {
  const { estimate, summaryTokens } = input;
  const capacity = chunkCapacity(input);
  if (capacity < MIN_CHUNK_TOKENS) {
    throw new CompactionLimitError(
      `the summarizer's context window (${input.summarizerNumCtx} tokens) is too small for a ${summaryTokens}-token summary`,
    );
  }
  let narrative = input.previousNarrative ?? '';
  for (const chunk of chunkLines(input.lines, capacity, estimate)) {
    if (input.signal?.aborted) throw new Error('cancelled');
    const request = buildSummarizerRequest({
      rules: input.rules,
      focus: input.focus,
      previousNarrative: narrative,
      lines: chunk,
      maxTokens: input.targetTokens,
    });
    const reply = cleanNarrative(
      await input.ask({ ...request, numPredict: summaryTokens, signal: input.signal }),
    );
    if (!reply) throw new Error('the summarizer returned an empty summary');
    narrative = trimNarrative(reply, summaryTokens, estimate);
  }
  return narrative;
}

/** Cuts a line (with its newline) to fit `maxTokens`, keeping the longest prefix that does. */
function fitLine(line: string, maxTokens: number, estimate: (text: string) => number): string {
  let lo = 0;
  let hi = line.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimate(`${capText(line, mid)}\n`) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return capText(line, lo);
}
