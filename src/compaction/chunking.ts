import { MESSAGE_OVERHEAD_TOKENS, weightedLength } from '../conversation/token-estimate.js';
import type { Ask, SummarizerReply } from './ask.js';
import { cutNarrative } from './narrative-cut.js';
import { buildCondenseRequest, buildSummarizerRequest, summaryCharLimit } from './summarizer-prompt.js';
import { cleanNarrative } from './summary.js';

/**
 * Share of the summarizer's window the request may fill: estimates are estimates, and over the
 * window Ollama silently truncates the very input compaction exists to keep.
 */
export const SUMMARIZER_WINDOW_MARGIN = 0.9;

/**
 * The summarizer's `num_predict` is this many times the summary budget: a reply that overshoots
 * its limit then arrives whole, to be condensed or cut (and reported) by ochat, instead of being
 * cut silently by the server — which drops its end, the newest facts.
 */
export const REPLY_ROOM_FACTOR = 2;

/** A chunk smaller than this cannot carry a conversation: the summarizer's window is too small. */
export const MIN_CHUNK_TOKENS = 64;

/** A compaction failure that retrying cannot fix (a window or budget too small for the work). */
export class CompactionLimitError extends Error {
  override readonly name = 'CompactionLimitError';
}

/**
 * Splits lines into consecutive chunks whose lines (each costing `estimate(line + '\n')`) fit
 * `maxChunkTokens`. Every line lands in a chunk, in order; a line too long for any chunk is
 * split into consecutive pieces that each fit, so every part of it reaches the summarizer.
 */
export function chunkLines(
  lines: readonly string[],
  maxChunkTokens: number,
  estimate: (text: string) => number,
): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let used = 0;
  const add = (line: string, cost: number) => {
    if (current.length && used + cost > maxChunkTokens) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(line);
    used += cost;
  };
  for (const line of lines) {
    const cost = estimate(`${line}\n`);
    if (cost <= maxChunkTokens) add(line, cost);
    else for (const piece of splitToFit(line, maxChunkTokens, estimate)) add(piece, estimate(`${piece}\n`));
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
    // Only the frame's size matters here: the widest limit the request can state.
    maxChars: summaryCharLimit(summaryTokens, 8),
  });
  // The running narrative is trimmed to the summary budget; the first one may be larger.
  const narrative = Math.max(summaryTokens, estimate(input.previousNarrative ?? ''));
  return (
    Math.floor(input.summarizerNumCtx * SUMMARIZER_WINDOW_MARGIN) -
    // An obedient reply's room; Ollama fits the prompt to num_ctx, not prompt + num_predict.
    summaryTokens -
    estimate(frame.system) -
    estimate(frame.prompt) -
    narrative -
    2 * MESSAGE_OVERHEAD_TOKENS
  );
}

/** What was cut from summaries that stayed over budget: the text removed, and its tokens. */
export interface SummaryCut {
  text: string;
  tokens: number;
  /**
   * Replies the server cut off at `num_predict` even when asked again: their ends are lost, and
   * no one knows how much was in them (absent: none).
   */
  endsLost?: number;
}

/** How the summarizer is asked and within what budget: what every summarizing step is given. */
export interface SummarizerCall {
  rules?: string;
  focus?: string;
  ask: Ask;
  /** The summary budget: the cap of every running narrative (`num_predict` is REPLY_ROOM_FACTOR × it). */
  summaryTokens: number;
  /** The most every narrative may take (≤ summaryTokens), told to the summarizer in characters. */
  targetTokens: number;
  /** The calibrated chars per token, to state the limit in characters. */
  charsPerToken: number;
  summarizerNumCtx: number;
  estimate: (text: string) => number;
  signal?: AbortSignal;
}

/**
 * Summarizes the lines with the injected `ask`: in one request when they fit the summarizer's
 * window, otherwise chunk by chunk in order, each chunk folded into the running narrative
 * (the previous narrative is always the first input). Each step is `foldStep`'s: a reply over
 * `targetTokens` is sent back once to be condensed, and only if it is still over is it cut; the
 * cut is returned so the caller can report and record it, with the number of chunks (`parts`).
 * Throws when the summarizer returns an empty summary or its window cannot hold a useful chunk.
 */
export async function summarizeLines(
  input: SummarizerCall & { lines: readonly string[]; previousNarrative?: string },
): Promise<{ narrative: string; cut: SummaryCut | undefined; parts: number }> {
  const { estimate, summaryTokens } = input;
  const capacity = chunkCapacity(input);
  if (capacity < MIN_CHUNK_TOKENS) {
    throw new CompactionLimitError(
      `the summarizer's context window (${input.summarizerNumCtx} tokens) is too small for a ${summaryTokens}-token summary`,
    );
  }
  const maxChars = summaryMaxChars(input, [input.previousNarrative ?? '', ...input.lines]);
  let narrative = input.previousNarrative ?? '';
  const cuts = new CutTally();
  const chunks = chunkLines(input.lines, capacity, estimate);
  for (const chunk of chunks) {
    const step = await foldStep(input, maxChars, (wasCutOff) =>
      buildSummarizerRequest({
        rules: input.rules,
        focus: input.focus,
        previousNarrative: narrative,
        lines: chunk,
        maxChars,
        wasCutOff,
      }),
    );
    if (step.calledTools) throw new Error('the summarizer called a tool instead of writing a summary');
    narrative = cuts.add(step);
  }
  return { narrative, cut: cuts.total(), parts: chunks.length };
}

/** The limit told to the summarizer in characters, for a summary of `texts` (see `bytesPerChar`). */
export function summaryMaxChars(input: SummarizerCall, texts: readonly string[]): number {
  return summaryCharLimit(input.targetTokens, input.charsPerToken / bytesPerChar(texts.join('\n')));
}

/** One request to the summarizer, as `Ask` takes it (without `numPredict` and `signal`). */
export type SummarizerAsk = Omit<Parameters<Ask>[0], 'numPredict' | 'signal'>;

/** What one summarizing step gave: the narrative kept, what was cut of it, whether its end was lost. */
export interface FoldStep {
  narrative: string;
  removed: string;
  removedTokens: number;
  endLost: boolean;
  /** The model called tools instead (the other fields are then empty). */
  calledTools: boolean;
}

/**
 * One summary from one request: asked again, told so, when the server cut the reply off (only
 * the whole input can give back the lost end, the newest facts); sent back once to be condensed
 * when over `targetTokens` or cut off again; cut only as a last resort (narrative-cut.ts).
 * Throws on an empty summary.
 */
export async function foldStep(
  input: SummarizerCall,
  maxChars: number,
  request: (wasCutOff: boolean) => SummarizerAsk,
): Promise<FoldStep> {
  const { estimate, summaryTokens } = input;
  const numPredict = REPLY_ROOM_FACTOR * summaryTokens;
  const ask = async (asked: SummarizerAsk): Promise<SummarizerReply> => {
    if (input.signal?.aborted) throw new Error('cancelled');
    const reply = await input.ask({ ...asked, numPredict, signal: input.signal });
    return { ...reply, text: cleanNarrative(reply.text) };
  };
  let reply = await ask(request(false));
  if (reply.cutOff && !reply.calledTools) reply = await ask(request(true));
  if (reply.calledTools)
    return { narrative: '', removed: '', removedTokens: 0, endLost: false, calledTools: true };
  if (!reply.text) throw new Error('the summarizer returned an empty summary');
  let text = reply.text;
  // A condense request carries the whole reply: sent only when it fits the summarizer's window too.
  const condense = buildCondenseRequest({ rules: input.rules, summary: text, maxChars });
  const fitsWindow =
    estimate(condense.system) + estimate(condense.prompt) + 2 * MESSAGE_OVERHEAD_TOKENS + summaryTokens <=
    Math.floor(input.summarizerNumCtx * SUMMARIZER_WINDOW_MARGIN);
  if ((reply.cutOff || estimate(text) > input.targetTokens) && fitsWindow) {
    const condensed = await ask(condense);
    // A condensed reply the server cut off is missing its end: cutting the whole one loses less, and says so.
    if (
      condensed.text &&
      !condensed.cutOff &&
      !condensed.calledTools &&
      estimate(condensed.text) < estimate(text)
    )
      text = condensed.text;
  }
  const cut = cutNarrative(text, input.targetTokens, estimate);
  return {
    narrative: cut.kept,
    removed: cut.removed,
    removedTokens: cut.removed ? Math.max(1, estimate(text) - estimate(cut.kept)) : 0,
    endLost: reply.cutOff,
    calledTools: false,
  };
}

/** The cuts of several steps, summed into one `SummaryCut`. */
export class CutTally {
  private readonly removed: string[] = [];
  private tokens = 0;
  private endsLost = 0;

  /** Counts the step's cut; returns its narrative. */
  add(step: FoldStep): string {
    if (step.removed) this.removed.push(step.removed);
    this.tokens += step.removedTokens;
    if (step.endLost) this.endsLost += 1;
    return step.narrative;
  }

  total(): SummaryCut | undefined {
    if (!this.removed.length && !this.endsLost) return undefined;
    const cut: SummaryCut = { text: this.removed.join('\n'), tokens: this.tokens };
    if (this.endsLost) cut.endsLost = this.endsLost;
    return cut;
  }
}

/**
 * UTF-8 bytes per character the summary will take: chars per token counts bytes (see
 * `weightedLength`), the summarizer counts characters. Where the conversation is written in a
 * wider script (Cyrillic 2, CJK 3), a summary may be all of it, so that script's width counts,
 * not an average diluted by the ASCII names, numbers and markup around it.
 */
function bytesPerChar(text: string): number {
  const wide = text.match(/[^\x00-\x7f]/gu) ?? [];
  const visible = text.replace(/\s/g, '').length;
  if (wide.length && wide.length >= WIDE_SCRIPT_SHARE * visible)
    return weightedLength(wide.join('')) / wide.length;
  return text.length ? Math.max(1, weightedLength(text) / text.length) : 1;
}

/** Share of non-ASCII characters from which a conversation counts as written in a wider script. */
const WIDE_SCRIPT_SHARE = 0.1;

/** A line as consecutive pieces that each fit `maxTokens` (with its newline); never splits a surrogate pair. */
function splitToFit(line: string, maxTokens: number, estimate: (text: string) => number): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest && estimate(`${rest}\n`) > maxTokens) {
    // The longest prefix that fits, at least one character (or one surrogate pair).
    let lo = 1;
    let hi = rest.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (estimate(`${rest.slice(0, mid)}\n`) <= maxTokens) lo = mid;
      else hi = mid - 1;
    }
    const end = !isHighSurrogate(rest.charCodeAt(lo - 1)) ? lo : lo > 1 ? lo - 1 : Math.min(2, rest.length);
    pieces.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  if (rest || !pieces.length) pieces.push(rest);
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
