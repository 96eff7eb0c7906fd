import type { CompactionRecord } from '../conversation/compaction-record.js';
import type { Message } from '../conversation/message.js';
import {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTokens,
} from '../conversation/token-estimate.js';
import { lastTurnStart } from '../conversation/turns.js';
import { describeError } from '../text/describe-error.js';
import type { Ask } from './ask.js';
import type { Budgets } from './budgets.js';
import {
  CompactionLimitError,
  type RoomForDetails,
  type SummarizerCall,
  type SummaryCut,
  summarizeLines,
} from './chunking.js';
import { type ChatContinuation, continuableUpto, continuationFits, continueChat } from './continuation.js';
import {
  collectDetails,
  collectSliceDetails,
  holdsDetail,
  inPastedBlock,
  joinDetails,
  keptIn,
} from './details.js';
import {
  type CondensedMessage,
  type CutMessage,
  condenseLongMessages,
  type LongMessages,
} from './long-messages.js';
import { buildModelView, toWireMessage, type ViewFit } from './model-view.js';
import { type CompactionPlan, planCompaction } from './plan.js';
import { renderSliceLines } from './summarizer-prompt.js';
import {
  assembleToolEntries,
  detailsBudget,
  detailsFrameCost,
  detailsListCost,
  fitDetailsList,
  narrativeBudget,
  toolLogRoom,
} from './summary.js';
import { collectToolEntries, mergeToolEntries } from './tool-entries.js';

export type { Ask } from './ask.js';

/** A compaction must shrink the view by at least this share, or it is not applied (loop guard). */
export const MIN_SHRINK_RATIO = 0.05;

/** A record with no summary yet: what a boundary leaves in the view, its summary's room counted apart. */
const emptyRecord: CompactionRecord = {
  upto: 0,
  narrative: '',
  toolEntries: [],
  model: '',
  at: '',
  tokensBefore: 0,
  tokensAfter: 0,
};

/** Everything one compaction needs; nothing in it is mutated. */
export interface CompactionInput {
  transcript: readonly Message[];
  /** The record in force, if any: its narrative is folded in, its entries carried over. */
  previous?: CompactionRecord;
  budgets: Budgets;
  system?: string;
  /** The instruction files' section: in every request, before and after, never summarized. */
  instructions?: string;
  /** The pinned notes' section (pins.ts), in every request: counted in every figure. */
  pins?: string;
  ask: Ask;
  /** The summarizer model's window (`num_ctx` sent with its requests). */
  summarizerNumCtx: number;
  /** The summarizer model's name, recorded on the result. */
  model: string;
  /** Messages (and tool outputs) over this many chars are condensed on their own first (long-messages.ts). */
  maxMessageChars: number;
  /** `compaction.cut_long_messages`: such messages are cut to their head instead, and the report names each. */
  cutLongMessages?: boolean;
  /** `compaction.prompt`: replaces the default summarizer rules. */
  rules?: string;
  /**
   * `compaction.details`: exact details are asked for, checked, and those still missing kept in a
   * list sure of this share of the summary budget, and of any room the narrative leaves (absent: off).
   */
  details?: { share: number };
  /** `/compact <instructions>`: focus for this run. */
  focus?: string;
  charsPerToken: number;
  now: () => Date;
  signal?: AbortSignal;
  /** Tool content as the app sends it (capped), so view estimates match what is sent. */
  toolContent?: (message: Message) => string;
  /** How the app fits the newest turn in the window, so the figures before and after are of the request as sent. */
  fit?: ViewFit;
  /** Tool outputs of older turns the requests sent shortened (model-view.ts): counted as sent. */
  shortened?: ReadonlyMap<Message, number>;
  /** Tokens every request carries besides its messages (the tool definitions): counted in every figure. */
  fixedTokens?: number;
  /**
   * Tokens the requests after this compaction carry besides `fixedTokens` (recall's definition,
   * which the first compaction brings): in the figures after it, not in those before, nor in a
   * request continuing the chat's (that one carries the tools the chat sent).
   */
  joiningTokens?: number;
  /**
   * The chat's own request as far as `transcript[upto]` (its system message and messages as
   * sent), when the summarizer is the chat model and may continue it (`compaction.reuse_cache`):
   * the slice is then summarized by continuing that request, which the server has in its KV
   * cache. Absent, or when that cannot be done, the standalone prompt is used.
   */
  continuation?: (upto: number) => ChatContinuation | undefined;
  /**
   * The app's figure for the request before compaction (the server's count when it has one), so
   * the report agrees with the meter; default: the estimate.
   */
  usedBefore?: number;
}

/** Figures of a successful compaction, for the report line. */
export interface CompactionResult {
  messagesSummarized: number;
  tokensBefore: number;
  tokensAfter: number;
  numCtx: number;
  model: string;
  /** Tokens cut from summaries that stayed over budget (0: nothing was cut). */
  cutTokens: number;
  /** Summarizer replies the server cut off at their length limit, their ends lost (0: none). */
  endsLost: number;
  /** Long messages condensed on their own first, and in how many parts (empty: none). */
  condensed?: CondensedMessage[];
  /** Long messages cut to their head for the summarizer (`cut_long_messages`; empty: none). */
  cutMessages?: CutMessage[];
  /** The exact details check (absent: `compaction.details` is off). */
  details?: DetailsOutcome;
}

/** What became of the exact details of a compaction. */
export interface DetailsOutcome {
  /** Checked to be in the summary verbatim. */
  bySummary: number;
  /** Kept verbatim in the details list beside it. */
  inList: number;
  /** Folded out of the list by this compaction to fit its share (recall still finds them). */
  folded: number;
  /** Folded over all compactions so far. */
  foldedTotal: number;
}

/** A compaction's outcome: the record to append, or why there is none. */
export type CompactionOutcome =
  | { ok: true; record: CompactionRecord; result: CompactionResult }
  | { ok: false; reason: 'nothing-to-compact' }
  /**
   * `retryable`: whether running it again could succeed (a server error may pass; a window too small will not).
   * `nextTurn`: it could once a new turn starts (the newest turn, kept whole, is what takes the room).
   */
  | { ok: false; reason: 'failed'; message: string; retryable: boolean; nextTurn?: true };

/**
 * Runs one compaction: plans the boundary, asks the summarizer (in chunks when its window needs
 * it), assembles the summary within its budget and validates it (non-empty, view ≥ 5% smaller).
 * Never mutates its inputs: the caller appends `record` only when `ok`.
 */
export async function compactConversation(input: CompactionInput): Promise<CompactionOutcome> {
  const { transcript, previous, budgets, charsPerToken, toolContent } = input;
  const estimateText = (text: string) => estimateTokens(text, charsPerToken);
  const planned = planCompaction({
    transcript,
    previous,
    budgets,
    estimate: (message) => estimateMessageTokens(toWireMessage(message, toolContent), charsPerToken),
  });
  if (!planned) return { ok: false, reason: 'nothing-to-compact' };
  const viewTokens = (record: CompactionRecord | undefined, joining = 0) =>
    (input.fixedTokens ?? 0) +
    joining +
    estimateMessagesTokens(
      buildModelView({
        system: input.system,
        instructions: input.instructions,
        pins: input.pins,
        record,
        transcript,
        toolContent,
        fit: input.fit && { ...input.fit, numCtx: input.fit.numCtx - joining },
        shortened: input.shortened,
      }),
      charsPerToken,
    );
  const estimatedBefore = viewTokens(previous);
  // A smaller slice, continued, must still shrink the view enough, and leave the next request
  // below the trigger: else the next compaction runs at once, on a prompt the server never saw.
  // Weighed in the chat's window: the one a summarizer continuing the chat's request sends; with
  // the tool definitions only where the server renders them (none on llama-server's chatml).
  const worthIt = (upto: number) => {
    const rendered = input.continuation?.(upto)?.toolTokens !== 0;
    const tools = rendered ? 0 : (input.fixedTokens ?? 0);
    const after =
      viewTokens({ ...emptyRecord, upto }, rendered ? (input.joiningTokens ?? 0) : 0) -
      tools +
      budgets.summary;
    return after <= estimatedBefore * (1 - 2 * MIN_SHRINK_RATIO) && after + budgets.reserve <= budgets.numCtx;
  };
  const plan =
    input.continuation && input.summarizerNumCtx === budgets.numCtx
      ? sliceToContinue(input, input.continuation, planned, worthIt)
      : planned;
  const tokensBefore = input.usedBefore ?? estimatedBefore;
  // The narrative's budget leaves the tool log its share (or less, when its lines need less)...
  const sharedEntries = assembleToolEntries(
    previous?.toolEntries ?? [],
    collectToolEntries(plan.slice),
    budgets.summary,
    estimateText,
  );
  const budget = narrativeBudget(budgets.summary, sharedEntries, estimateText);
  // The exact details: those of the slice and those carried, asked for and checked; only the
  // slice's asked for once more (the list carries the older ones whatever the summarizer does).
  const collected = input.details ? collectSliceDetails(plan.slice) : { details: [], pastCap: [] };
  const candidates = joinDetails(previous?.details ?? [], previous?.keptDetails ?? [], collected.details);
  const carried = new Set(candidates.map((d) => d.text));
  // A paste's details past the per-message cap are folded from the start: counted, found by recall.
  const alreadyFolded =
    (previous?.detailsFolded ?? 0) + collected.pastCap.filter((d) => !carried.has(d)).length;
  const shareBudget = input.details ? detailsBudget(budgets.summary, input.details.share, estimateText) : 0;
  // What the details a narrative lacks need beside it: their cost up to their share, and at
  // least the list with every one folded (folding is said, never silent). No more: the narrative
  // keeps the rest of the budget.
  const listNeed = (narrative: string) => {
    const missing = candidates.filter((d) => !keptIn(narrative, d));
    if (!missing.length && !alreadyFolded) return 0;
    return Math.max(
      Math.min(
        shareBudget,
        detailsListCost({ details: missing, detailsFolded: alreadyFolded }, estimateText),
      ),
      detailsFrameCost(alreadyFolded + missing.length, estimateText),
    );
  };
  const allFolded = detailsFrameCost(alreadyFolded + candidates.length, estimateText);
  const roomAfterDetails = (narrative: string) => budget - listNeed(narrative);
  // A narrative made shorter to give the list its room keeps every exact detail it held: in it,
  // in the list (which then has room for it), in the tool log, or, when no list holds it, in a
  // pasted block of the history, whose other details are counted as folded (past the cap, or
  // folded before). A tool output's are in no list: kept.
  const compacted = transcript.slice(0, plan.upto);
  const inToolLog = (detail: string) => sharedEntries.some((entry) => entry.includes(detail));
  const keepsHeld = (trimmed: string, held: readonly string[]) => {
    const missing = candidates.filter((d) => !keptIn(trimmed, d));
    const room = Math.max(budget - estimateText(trimmed), allFolded);
    const listed = new Set(
      fitDetailsList(missing, alreadyFolded, room, estimateText).details.map((d) => d.text),
    );
    return held.every(
      (d) =>
        holdsDetail(trimmed, d) ||
        listed.has(d) ||
        inToolLog(d) ||
        (!carried.has(d) && inPastedBlock(compacted, d)),
    );
  };
  let narrative: string;
  let cut: SummaryCut | undefined;
  let long: LongMessages;
  let summarized: { narrative: string; cut: SummaryCut | undefined };
  try {
    const summarizer = {
      rules: input.rules,
      focus: input.focus,
      ask: input.ask,
      summaryTokens: budgets.summary,
      targetTokens: Math.max(1, budget),
      charsPerToken,
      summarizerNumCtx: input.summarizerNumCtx,
      estimate: estimateText,
      signal: input.signal,
    };
    const details = candidates.map((d) => d.text);
    const askAgain = collected.details.map((d) => d.text);
    const room = input.details ? { roomAfterDetails, keepsHeld, askAgain } : {};
    const continued = await continueSlice(input, { ...summarizer, ...room }, plan, details);
    if (continued?.summarized) {
      long = continued.long;
      summarized = continued.summarized;
    } else {
      // The long messages the continuation condensed already, unless it only looked at the shortened ones.
      long =
        continued && !input.cutLongMessages
          ? continued.long
          : await condenseLongMessages({
              ...summarizer,
              slice: plan.slice,
              firstIndex: plan.from,
              maxMessageChars: input.maxMessageChars,
              cutLongMessages: input.cutLongMessages ?? false,
              toolContent,
            });
      summarized = await summarizeLines({
        ...summarizer,
        lines: renderSliceLines(plan.slice, {
          maxMessageChars: input.maxMessageChars,
          firstIndex: plan.from,
          condensed: long.condensed,
        }),
        previousNarrative: previous?.narrative,
        details,
        ...room,
      });
    }
    narrative = summarized.narrative;
    cut = joinCuts(long.summaryCut, summarized.cut);
  } catch (error) {
    return {
      ok: false,
      reason: 'failed',
      message: describeError(error),
      retryable: !(error instanceof CompactionLimitError),
    };
  }
  if (!narrative) {
    return {
      ok: false,
      reason: 'failed',
      message: `the summary budget (${budgets.summary} tokens) leaves no room for a summary`,
      retryable: false,
    };
  }
  // What the summary dropped is kept verbatim in the list: past its share too, in all the room the
  // narrative left (a gist leaves much); the oldest folded only when the whole budget is full.
  const keptDetails = candidates.filter((d) => keptIn(narrative, d));
  const list = fitDetailsList(
    candidates.filter((d) => !keptIn(narrative, d)),
    alreadyFolded,
    Math.max(budget - estimateText(narrative), allFolded),
    estimateText,
  );
  const listCost = detailsListCost({ details: list.details, detailsFolded: list.foldedTotal }, estimateText);
  // ...and the tool log then keeps its lines exactly wherever the narrative left room.
  const toolEntries = mergeToolEntries(
    previous?.toolEntries ?? [],
    collectToolEntries(plan.slice),
    toolLogRoom(budgets.summary, narrative, estimateText, listCost),
    estimateText,
  );
  const record: CompactionRecord = {
    upto: plan.upto,
    narrative,
    toolEntries,
    model: input.model,
    at: input.now().toISOString(),
    tokensBefore,
    tokensAfter: 0,
  };
  if (cut) record.cut = cut;
  if (input.focus) record.focus = input.focus;
  if (list.details.length) record.details = list.details;
  if (keptDetails.length) record.keptDetails = keptDetails;
  if (list.foldedTotal) record.detailsFolded = list.foldedTotal;
  const joining = input.joiningTokens ?? 0;
  record.tokensAfter = viewTokens(record, joining);
  // Estimate against estimate: the loop guard must not depend on how stale the server's count is.
  // Like against like, too: what joins the requests once (recall's definition, at the first
  // compaction) is no sign of a summary that cannot shrink, and the next compaction counts it both sides.
  const needed = Math.floor(estimatedBefore * (1 - MIN_SHRINK_RATIO));
  const shrunkTo = record.tokensAfter - joining;
  if (
    shrunkTo > needed &&
    !enoughForAnOverfullRequest({
      budgets,
      transcript,
      upto: plan.upto,
      before: estimatedBefore,
      after: shrunkTo,
    })
  ) {
    const figure = (tokens: number) => tokens.toLocaleString('en');
    return {
      ok: false,
      reason: 'failed',
      message: `the summary would not make the context smaller by ${MIN_SHRINK_RATIO * 100}% (needed ≤ ${figure(needed)} tokens, got ${figure(shrunkTo)})`,
      // The newest turn is kept whole, so another summary cannot free its room.
      retryable: false,
      nextTurn: true,
    };
  }
  return {
    ok: true,
    record,
    result: {
      messagesSummarized: plan.slice.length,
      tokensBefore,
      tokensAfter: record.tokensAfter,
      numCtx: budgets.numCtx,
      model: input.model,
      cutTokens: cut?.tokens ?? 0,
      endsLost: cut?.endsLost ?? 0,
      condensed: long.report,
      cutMessages: long.cut,
      ...(input.details
        ? {
            details: {
              bySummary: keptDetails.length,
              inList: list.details.length,
              folded: list.foldedTotal - (previous?.detailsFolded ?? 0),
              foldedTotal: list.foldedTotal,
            },
          }
        : {}),
    },
  };
}

/**
 * The plan, its slice made a turn or more smaller where that lets the summary continue the chat's
 * request (see `continuableUpto`), where `worthIt` accepts the smaller one.
 */
function sliceToContinue(
  input: CompactionInput,
  continuation: (upto: number) => ChatContinuation | undefined,
  planned: CompactionPlan,
  worthIt: (upto: number) => boolean,
): CompactionPlan {
  const { transcript, previous, budgets, charsPerToken } = input;
  const upto = continuableUpto({
    transcript,
    from: planned.from,
    planned: planned.upto,
    continuation,
    fixedTokens: input.fixedTokens ?? 0,
    worthIt,
    charsPerToken,
    summaryTokens: budgets.summary,
    summarizerNumCtx: input.summarizerNumCtx,
    estimate: (text) => estimateTokens(text, charsPerToken),
    askFor: (slice) => ({
      rules: input.rules,
      focus: input.focus,
      hasSummary: previous !== undefined,
      details: input.details
        ? joinDetails(previous?.details ?? [], previous?.keptDetails ?? [], collectDetails(slice)).map(
            (detail) => detail.text,
          )
        : [],
    }),
  });
  return upto === planned.upto ? planned : { ...planned, upto, slice: transcript.slice(planned.from, upto) };
}

/**
 * The slice summarized by continuing the chat's own request (see `CompactionInput.continuation`);
 * undefined when that cannot be done. Long messages are still condensed on their own first, as
 * for the standalone prompt (a fact in the middle of a long paste gets a request of its own), and
 * given again in the ask with the messages the request sent shortened. With `cutLongMessages`
 * only those sent shortened are cut: the others are whole in the request it continues. Without
 * `summarized` when it cannot be done (`long` then serves the standalone prompt).
 */
async function continueSlice(
  input: CompactionInput,
  summarizer: SummarizerCall & RoomForDetails,
  plan: CompactionPlan,
  /** Exact details to ask for (details.ts). */
  details: readonly string[],
): Promise<
  { long: LongMessages; summarized?: { narrative: string; cut: SummaryCut | undefined } } | undefined
> {
  const continuation = input.continuation?.(plan.upto);
  // What the request it continues carries at the server: not the definitions its template leaves out.
  const fixedTokens = continuation?.toolTokens ?? input.fixedTokens ?? 0;
  // Hopeless before anything is condensed: the messages alone leave no room for the ask and the reply.
  if (!continuation || !continuationFits({ ...summarizer, continuation, fixedTokens }, 0)) return undefined;
  const shortened = new Set(continuation.shortened);
  const cutLongMessages = input.cutLongMessages ?? false;
  const long = await condenseLongMessages({
    ...summarizer,
    slice: plan.slice,
    firstIndex: plan.from,
    maxMessageChars: input.maxMessageChars,
    cutLongMessages,
    toolContent: input.toolContent,
    only: cutLongMessages ? shortened : undefined,
  });
  const condensedAlone = new Set(long.report.map((condensed) => condensed.index));
  const againLines = plan.slice.flatMap((message, k) =>
    shortened.has(message) || condensedAlone.has(plan.from + k)
      ? renderSliceLines([message], {
          maxMessageChars: input.maxMessageChars,
          firstIndex: plan.from + k,
          condensed: long.condensed,
        })
      : [],
  );
  const summarized = await continueChat({
    ...summarizer,
    continuation,
    hasSummary: input.previous !== undefined,
    againLines,
    details,
    fixedTokens,
  });
  return { long, summarized };
}

/**
 * Less than the loop guard's share, but all a request over its budget (past `num_ctx − reserve`)
 * can get: one that now fits (compaction is then no longer due), or one with all but the newest
 * turn folded (the next plan is empty until a new turn starts). Neither can loop, and refusing
 * them left the request to be cut by the server.
 */
function enoughForAnOverfullRequest(input: {
  budgets: Budgets;
  transcript: readonly Message[];
  upto: number;
  before: number;
  after: number;
}): boolean {
  const { budgets, before, after } = input;
  const fits = (tokens: number) => tokens + budgets.reserve <= budgets.numCtx;
  if (fits(before) || after >= before) return false;
  return fits(after) || input.upto === lastTurnStart(input.transcript);
}

/** The cuts of the condensed long messages and of the fold, as one. */
function joinCuts(a: SummaryCut | undefined, b: SummaryCut | undefined): SummaryCut | undefined {
  if (!a || !b) return a ?? b;
  const joined: SummaryCut = {
    text: [a.text, b.text].filter(Boolean).join('\n'),
    tokens: a.tokens + b.tokens,
  };
  const endsLost = (a.endsLost ?? 0) + (b.endsLost ?? 0);
  if (endsLost) joined.endsLost = endsLost;
  return joined;
}
