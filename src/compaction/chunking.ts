import { eventLoopTurn } from '../async/event-loop-turn.js';
import { MESSAGE_OVERHEAD_TOKENS, weightedLength } from '../conversation/token-estimate.js';
import { isHighSurrogate, isLowSurrogate } from '../text/shorten.js';
import type { Ask, SummarizerReply } from './ask.js';
import { findDetails, holdsDetail } from './details.js';
import { cutNarrative } from './narrative-cut.js';
import {
  buildCondenseRequest,
  buildMissingDetailsRequest,
  buildSummarizerRequest,
  summaryCharLimit,
} from './summarizer-prompt.js';
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
 * Lazy: a chunk is made when it is asked for, so the summarizer's requests (and the event loop)
 * run between chunks, however long a line is; the work is linear in the lines' length.
 */
export function* chunkLines(
  lines: readonly string[],
  maxChunkTokens: number,
  estimate: (text: string) => number,
): Generator<string[], void, undefined> {
  let current: string[] = [];
  let used = 0;
  function* add(line: string, cost: number): Generator<string[], void, undefined> {
    if (current.length && used + cost > maxChunkTokens) {
      yield current;
      current = [];
      used = 0;
    }
    current.push(line);
    used += cost;
  }
  for (const line of lines) {
    const cost = estimate(`${line}\n`);
    if (cost <= maxChunkTokens) yield* add(line, cost);
    else
      for (const piece of splitToFit(line, maxChunkTokens, estimate))
        yield* add(piece, estimate(`${piece}\n`));
  }
  if (current.length) yield current;
}

/** Tokens of lines a summarizer request can carry, given everything else it must hold. */
export function chunkCapacity(input: {
  summarizerNumCtx: number;
  summaryTokens: number;
  previousNarrative?: string;
  rules?: string;
  focus?: string;
  /** Exact details the requests list (their whole list: an upper bound of any chunk's). */
  details?: readonly string[];
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

/**
 * Gives the event loop a turn, then throws if the compaction was cancelled meanwhile: every
 * summarizer request and every pass over a long message awaits it first.
 */
export async function cancellableTurn(signal: AbortSignal | undefined): Promise<void> {
  await eventLoopTurn();
  if (signal?.aborted) throw new Error('cancelled');
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
  /** How a follow-up on a summary is asked (absent: on its own, `standaloneFollowUps`). */
  followUps?: FollowUps;
}

/**
 * How the summarizer is asked to rework a summary it gave: condense it to `maxChars`, or write in
 * the exact details it left out. Each gives the request, or undefined when it would not fit the
 * summarizer's window with the reply's room (the step is then skipped).
 */
export interface FollowUps {
  condense(summary: string, maxChars: number): SummarizerAsk | undefined;
  missingDetails(summary: string, missing: readonly string[], maxChars: number): SummarizerAsk | undefined;
}

/** The follow-ups as requests of their own: the summary in the prompt, the rules as system message. */
export function standaloneFollowUps(input: SummarizerCall): FollowUps {
  const fitting = (request: SummarizerAsk) => (fitsWindow(input, request) ? request : undefined);
  return {
    condense: (summary, maxChars) => fitting(buildCondenseRequest({ rules: input.rules, summary, maxChars })),
    missingDetails: (summary, missing, maxChars) =>
      fitting(buildMissingDetailsRequest({ rules: input.rules, summary, missing, maxChars })),
  };
}

/** Most characters of exact details one summarizer request lists: the rest are still checked, and kept out-of-band. */
export const MAX_LISTED_DETAIL_CHARS = 2000;

/**
 * Summarizes the lines with the injected `ask`: in one request when they fit the summarizer's
 * window, otherwise chunk by chunk in order, each chunk folded into the running narrative
 * (the previous narrative is always the first input). Each step is `foldStep`'s: a reply over
 * `targetTokens` is sent back once to be condensed, and only if it is still over is it cut; the
 * cut is returned so the caller can report and record it, with the number of chunks (`parts`).
 * Then the details check (`askMissingDetails`). Throws when the summarizer returns an empty
 * summary or its window cannot hold a useful chunk.
 */
export async function summarizeLines(
  input: SummarizerCall &
    RoomForDetails & {
      lines: readonly string[];
      previousNarrative?: string;
      /** Exact details to ask for (details.ts): listed in each request, then checked; missing ones asked for once more. */
      details?: readonly string[];
    },
): Promise<{ narrative: string; cut: SummaryCut | undefined; parts: number }> {
  const { estimate, summaryTokens } = input;
  const listed = listedDetails(input.details ?? []);
  const capacity = chunkCapacity({ ...input, details: listed });
  if (capacity < MIN_CHUNK_TOKENS) {
    throw new CompactionLimitError(
      `the summarizer's context window (${input.summarizerNumCtx} tokens) is too small for a ${summaryTokens}-token summary`,
    );
  }
  const texts = [input.previousNarrative ?? '', ...input.lines];
  const maxChars = summaryMaxChars(input, texts);
  let narrative = input.previousNarrative ?? '';
  const cuts = new CutTally();
  let parts = 0;
  // Details no line shows (past a message's cap) are listed with the first chunk.
  const unseen = new Set(listed.filter((d) => !input.lines.some((line) => line.includes(d))));
  for (const chunk of chunkLines(input.lines, capacity, estimate)) {
    parts += 1;
    // A request lists the details its chunk, the summary so far, or (the first) no line holds.
    const details = listed.filter(
      (d) =>
        narrative.includes(d) || chunk.some((line) => line.includes(d)) || (parts === 1 && unseen.has(d)),
    );
    const step = await foldStep(input, maxChars, (wasCutOff) =>
      buildSummarizerRequest({
        rules: input.rules,
        focus: input.focus,
        previousNarrative: narrative,
        lines: chunk,
        maxChars,
        wasCutOff,
        details,
      }),
    );
    if (step.calledTools) throw new Error('the summarizer called a tool instead of writing a summary');
    narrative = cuts.add(step);
  }
  narrative = await keepDetails(input, narrative, input.details ?? [], { maxChars, texts, cuts });
  return { narrative, cut: cuts.total(), parts };
}

/** The limit told to the summarizer in characters, for a summary of `texts` (see `bytesPerChar`). */
export function summaryMaxChars(input: SummarizerCall, texts: readonly string[]): number {
  return summaryCharLimit(input.targetTokens, input.charsPerToken / bytesPerChar(texts));
}

/** One request to the summarizer, as `Ask` takes it (without `numPredict` and `signal`). */
export type SummarizerAsk = Omit<Parameters<Ask>[0], 'numPredict' | 'signal'>;

/** Asks the summarizer once (after a turn of the event loop, unless cancelled); the narrative cleaned. */
async function askOnce(input: SummarizerCall, request: SummarizerAsk): Promise<SummarizerReply> {
  await cancellableTurn(input.signal);
  const reply = await input.ask({
    ...request,
    numPredict: REPLY_ROOM_FACTOR * input.summaryTokens,
    signal: input.signal,
  });
  return { ...reply, text: cleanNarrative(reply.text) };
}

/** Whether a standalone request fits the summarizer's window with the reply's room. */
function fitsWindow(input: SummarizerCall, request: { system: string; prompt: string }): boolean {
  return (
    input.estimate(request.system) +
      input.estimate(request.prompt) +
      2 * MESSAGE_OVERHEAD_TOKENS +
      input.summaryTokens <=
    Math.floor(input.summarizerNumCtx * SUMMARIZER_WINDOW_MARGIN)
  );
}

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
  const { estimate } = input;
  let reply = await askOnce(input, request(false));
  if (reply.cutOff && !reply.calledTools) reply = await askOnce(input, request(true));
  if (reply.calledTools)
    return { narrative: '', removed: '', removedTokens: 0, endLost: false, calledTools: true };
  if (!reply.text) throw new Error('the summarizer returned an empty summary');
  let text = reply.text;
  // Sent only when it fits the summarizer's window too (a standalone one carries the whole reply).
  const condense =
    reply.cutOff || estimate(text) > input.targetTokens
      ? (input.followUps ?? standaloneFollowUps(input)).condense(text, maxChars)
      : undefined;
  if (condense) {
    const condensed = await askOnce(input, condense);
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

/** What the details need beside the narrative (see `keepDetails`). */
export interface RoomForDetails {
  /**
   * The most the final narrative may take, given the narrative (the room the details it lacks
   * need beside it): over it, the narrative is condensed to it, or cut as a last resort.
   */
  roomAfterDetails?: (narrative: string) => number;
  /**
   * Whether a narrative made shorter still keeps the exact details `held` by the one before it,
   * in it or beside it (default: in it).
   */
  keepsHeld?: (trimmed: string, held: readonly string[]) => boolean;
  /**
   * The details a summary that lacks them is asked for once more (default: all it was asked
   * for): the slice's; the list carries the older ones whatever the summarizer does.
   */
  askAgain?: readonly string[];
}

/**
 * After the folds, the details check: the exact details the summary dropped are asked for once
 * more, within the same limit (the reply taken only whole, within the limit, and keeping more of
 * them); then the details still missing are kept beside the narrative, which makes room for them
 * out of its plain words only — never losing an exact detail it holds (some, such as a tool
 * output's, are in no list). A cut is counted in `cuts`.
 */
export async function keepDetails(
  input: SummarizerCall & RoomForDetails,
  summary: string,
  details: readonly string[],
  /** The limit told, the texts summarized (for the limit in characters), the cuts so far. */
  at: { maxChars: number; texts: readonly string[]; cuts: CutTally },
): Promise<string> {
  const { estimate } = input;
  let narrative = summary;
  const followUps = input.followUps ?? standaloneFollowUps(input);
  const askable = input.askAgain ?? details;
  const missing = askable.filter((d) => !holdsDetail(narrative, d));
  const retry =
    missing.length && narrative
      ? followUps.missingDetails(narrative, listedDetails(missing), at.maxChars)
      : undefined;
  if (retry) {
    const reply = await askOnce(input, retry);
    const stillMissing = reply.text
      ? missing.filter((d) => !holdsDetail(reply.text, d)).length
      : missing.length;
    if (
      !reply.cutOff &&
      !reply.calledTools &&
      stillMissing < missing.length &&
      estimate(reply.text) <= input.targetTokens
    )
      narrative = reply.text;
  }
  const room = input.roomAfterDetails?.(narrative);
  if (room === undefined || estimate(narrative) <= room) return narrative;
  const held = findDetails(narrative).map((d) => d.text);
  const holdsAll = (text: string) =>
    input.keepsHeld ? input.keepsHeld(text, held) : held.every((d) => holdsDetail(text, d));
  const condense = followUps.condense(
    narrative,
    summaryCharLimit(Math.max(1, room), input.charsPerToken / bytesPerChar(at.texts)),
  );
  let text = narrative;
  if (condense) {
    const condensed = await askOnce(input, condense);
    if (
      condensed.text &&
      !condensed.cutOff &&
      !condensed.calledTools &&
      estimate(condensed.text) < estimate(text) &&
      holdsAll(condensed.text)
    )
      text = condensed.text;
  }
  const cut = cutNarrative(text, Math.max(1, room), estimate);
  if (!holdsAll(cut.kept)) return text;
  if (cut.removed) at.cuts.cut(cut.removed, Math.max(1, estimate(text) - estimate(cut.kept)));
  return cut.kept;
}

/** The cuts of several steps, summed into one `SummaryCut`. */
export class CutTally {
  private readonly removed: string[] = [];
  private tokens = 0;
  private endsLost = 0;

  /** Counts the step's cut; returns its narrative. */
  add(step: FoldStep): string {
    if (step.removed) this.cut(step.removed, step.removedTokens);
    if (step.endLost) this.endsLost += 1;
    return step.narrative;
  }

  /** Counts text cut from a narrative, and its tokens. */
  cut(removed: string, tokens: number): void {
    this.removed.push(removed);
    this.tokens += tokens;
  }

  total(): SummaryCut | undefined {
    if (!this.removed.length && !this.endsLost) return undefined;
    const cut: SummaryCut = { text: this.removed.join('\n'), tokens: this.tokens };
    if (this.endsLost) cut.endsLost = this.endsLost;
    return cut;
  }
}

/** The details a request lists: newest last, as many of the newest as fit MAX_LISTED_DETAIL_CHARS. */
export function listedDetails(details: readonly string[]): string[] {
  let chars = 0;
  let first = details.length;
  while (first > 0 && chars + details[first - 1].length + 3 <= MAX_LISTED_DETAIL_CHARS) {
    first -= 1;
    chars += details[first].length + 3;
  }
  return details.slice(first);
}

/**
 * UTF-8 bytes per character the summary will take: chars per token counts bytes (see
 * `weightedLength`), the summarizer counts characters. Where the conversation is written in a
 * wider script (Cyrillic 2, CJK 3), a summary may be all of it, so that script's width counts,
 * not an average diluted by the ASCII names, numbers and markup around it.
 */
function bytesPerChar(texts: readonly string[]): number {
  // All ASCII (as many bytes as chars, counted natively): 1, with no pass over the chars.
  if (texts.every((text) => weightedLength(text) === text.length)) return 1;
  // One pass over the texts as they are (no joined copy, no array of matches: a 16 MB message is one line).
  let chars = 0;
  let bytes = 0;
  let visible = 0;
  let wide = 0;
  let wideBytes = 0;
  for (const text of texts) {
    chars += text.length;
    bytes += weightedLength(text);
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x80) {
        if (!isAsciiSpace(code)) visible += 1;
        continue;
      }
      if (!WIDE_SPACES.has(code)) visible += 1;
      wide += 1;
      if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) {
        visible += 1;
        wideBytes += 4;
        i += 1;
      } else wideBytes += code < 0x800 ? 2 : 3;
    }
  }
  // The newlines that join them.
  chars += texts.length - 1;
  bytes += texts.length - 1;
  if (wide && wide >= WIDE_SCRIPT_SHARE * visible) return wideBytes / wide;
  return chars ? Math.max(1, bytes / chars) : 1;
}

/** The white space `\s` matches in ASCII, and beyond it. */
function isAsciiSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}
const WIDE_SPACES = new Set([
  0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);

/** Share of non-ASCII characters from which a conversation counts as written in a wider script. */
const WIDE_SCRIPT_SHARE = 0.1;

/**
 * A line as consecutive pieces that each fit `maxTokens` (with its newline), each the longest
 * that fits; never splits a surrogate pair. Lazy, and linear in the line's length: a piece's
 * length is found by doubling a prefix of what is left until it no longer fits, then halving the
 * last step, so finding a piece of L chars estimates O(L log L) chars — never the rest of the line
 * (estimating the rest for every piece made a 16 MB line take minutes).
 */
function* splitToFit(
  line: string,
  maxTokens: number,
  estimate: (text: string) => number,
): Generator<string, void, undefined> {
  const fits = (start: number, length: number) =>
    estimate(`${line.slice(start, start + length)}\n`) <= maxTokens;
  let start = 0;
  do {
    const left = line.length - start;
    // The longest length known to fit (0: none yet), and the shortest known not to (beyond all that is left: none).
    let lo = 0;
    let hi = left + 1;
    for (let length = 1; length < hi; length = Math.min(2 * length, left)) {
      if (!fits(start, length)) hi = length;
      else lo = length;
      if (lo !== length || length === left) break;
    }
    while (lo + 1 < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (fits(start, mid)) lo = mid;
      else hi = mid;
    }
    // At least one character (or one surrogate pair), even when that alone does not fit.
    let end = start + Math.max(lo, 1);
    if (end < line.length && isHighSurrogate(line.charCodeAt(end - 1)))
      end = end - 1 > start ? end - 1 : Math.min(start + 2, line.length);
    yield line.slice(start, end);
    start = end;
  } while (start < line.length);
}
