import type { Message } from '../conversation/message.js';
import { capText, collapseWhitespace } from '../text/shorten.js';
import { toolEntryLine } from './tool-entries.js';

/** The default summarizer instructions; `compaction.prompt` in the config replaces them wholesale. */
export const DEFAULT_SUMMARIZER_RULES = `You keep the running summary of a conversation between a user and an AI assistant. It replaces the older messages: what it leaves out is lost.

Keep, exactly as written:
- every fact the user stated: names, numbers, file paths, URLs, commands, dates, versions, preferences, constraints;
- the assistant's commitments and the tasks in progress;
- decisions and their reasons; open questions and unresolved problems;
- the facts in tool outputs (values, paths, errors).

Fold the existing summary (if any) in: its facts must survive. Do not invent anything; add no advice or commentary; answer no questions. Write in the conversation's language, in plain prose or short bullets, in order, with no preamble.`;

/** A request to the summarizer model. */
export interface SummarizerRequest {
  system: string;
  prompt: string;
}

/** The tags around the slice of messages in the summarizer's prompt (test doubles find it by them). */
export const MESSAGES_OPEN = '<messages>';
export const MESSAGES_CLOSE = '</messages>';

/** Tells the summarizer its previous reply to the same request was too long and lost its end. */
export const CUT_OFF_NOTICE =
  'Your previous reply to this request was far too long: it was cut off unfinished.';

/**
 * The summarizer's request: the rules as system prompt; the previous narrative first (to be
 * folded in), then the slice's lines, then the one-run focus, then the size limit.
 */
export function buildSummarizerRequest(input: {
  /** `compaction.prompt` from the config: replaces the default rules wholesale. */
  rules?: string;
  previousNarrative?: string;
  /** `/compact <instructions>`: extra focus for this run only. */
  focus?: string;
  lines: readonly string[];
  /** The most characters the summary may take (see `summaryCharLimit`). */
  maxChars: number;
  /** The request is asked again because the server cut off the reply to it at its length limit. */
  wasCutOff?: boolean;
  /** Exact details to keep verbatim (details.ts): listed after the messages. */
  details?: readonly string[];
}): SummarizerRequest {
  const parts: string[] = [];
  if (input.previousNarrative?.trim()) {
    parts.push(
      `Existing summary of the conversation so far (keep every fact in it):\n<summary>\n${input.previousNarrative.trim()}\n</summary>`,
    );
  }
  parts.push(
    `New messages to fold into the summary, one per line as [index] role: text:\n${MESSAGES_OPEN}\n${input.lines.join('\n')}\n${MESSAGES_CLOSE}`,
  );
  parts.push(...closingParts(input));
  return { system: systemOf(input.rules), prompt: parts.join('\n\n') };
}

/** What ends every summarizing request: the exact details to keep, the one-run focus, the cut-off notice or the follow-up's, the size limit. */
function closingParts(input: {
  details?: readonly string[];
  focus?: string;
  wasCutOff?: boolean;
  followUp?: SummaryFollowUp;
  maxChars: number;
}): string[] {
  const parts: string[] = [];
  if (input.details?.length) parts.push(detailsToKeep(input.details));
  if (input.focus?.trim()) parts.push(`Focus for this summary, from the user: ${input.focus.trim()}`);
  if (input.wasCutOff) {
    parts.push(`${CUT_OFF_NOTICE} Keep every fact, but shorten the wording: stay within the limit.`);
  }
  if (input.followUp) parts.push(followUpNotice(input.followUp));
  parts.push(
    `Write the complete updated summary now, at most ${input.maxChars} characters. Output only the summary.`,
  );
  return parts;
}

/** Opens the user message that turns the chat's own request into a summarizer request (test doubles find it by it). */
export const CONTINUATION_OPENING =
  'Stop here: do not answer the conversation above and do not call any tool. Summarize it instead, by these rules:';

/**
 * The one user message that follows the chat's own request (its system message and the slice's
 * messages as they were sent) to make it a summarizer request: the rules, what to fold, the
 * messages given again (those sent shortened, whole here, and long ones condensed on their own),
 * then the closing parts of every summarizer request. Everything before it is the chat's last prompt, which the
 * server still holds in its KV cache.
 */
export function buildContinuationPrompt(input: {
  rules?: string;
  /** A follow-up on the summary this request gave before (over its limit, details missing): said before the limit. */
  followUp?: SummaryFollowUp;
  /** The system message above carries a summary section, to be folded in. */
  hasSummary: boolean;
  /** `[i] role: text` lines of messages above given again: sent shortened (whole here) or long (condensed). */
  againLines: readonly string[];
  /** Exact details to keep verbatim (details.ts). */
  details?: readonly string[];
  focus?: string;
  maxChars: number;
  wasCutOff?: boolean;
}): string {
  const parts = [`${CONTINUATION_OPENING}\n<rules>\n${systemOf(input.rules)}\n</rules>`];
  parts.push(
    input.hasSummary
      ? 'Fold the summary in the system message above (not its tool-call log, kept apart) and every message after it into one new summary.'
      : 'Summarize every message above, after the system message.',
  );
  if (input.againLines.length) {
    parts.push(
      `Some messages above are given again here, one per line as [index] role: text — whole where they were sent shortened, condensed on their own where they are long; keep their facts:\n${MESSAGES_OPEN}\n${input.againLines.join('\n')}\n${MESSAGES_CLOSE}`,
    );
  }
  parts.push(...closingParts(input));
  return parts.join('\n\n');
}

/**
 * A follow-up on a summary the continued request gave: it came back over the limit (or must make
 * room), or it left out exact details. Asked by the same request again with this said, so the
 * server has all of it but the ask's end in its KV cache; the summary itself is not repeated.
 */
export type SummaryFollowUp =
  | { kind: 'over-limit'; chars: number }
  | { kind: 'missing-details'; missing: readonly string[] };

/** Opens the notice that the summary this request gave was over its limit (test doubles find it by it). */
export const OVER_LIMIT_NOTICE = 'The summary you wrote for this request was too long:';

/** Opens the notice that the summary this request gave left out exact details (test doubles find it by it). */
export const MISSING_DETAILS_NOTICE =
  'The summary you wrote for this request left out exact details it must keep:';

function followUpNotice(followUp: SummaryFollowUp): string {
  if (followUp.kind === 'over-limit')
    return `${OVER_LIMIT_NOTICE} ${followUp.chars} characters. Write it again, shorter: keep every fact (names, numbers, paths, ids exactly as written), shorten the wording and drop repetition first.`;
  return `${MISSING_DETAILS_NOTICE}\n${followUp.missing.map((d) => `- ${d}`).join('\n')}\nWrite it again so that it contains each of them exactly as written, and every fact it kept.`;
}

/**
 * The limit told to the summarizer, in characters: a token budget times the calibrated chars per
 * token, so a reply that obeys it fits the budget. (A limit in words does not: names, numbers
 * and paths, kept "exactly as written", cost 2–5 tokens a word.)
 */
export function summaryCharLimit(maxTokens: number, charsPerToken: number): number {
  return Math.max(1, Math.floor(maxTokens * charsPerToken));
}

/** Opens the request that asks for an over-long summary to be condensed. */
export const CONDENSE_OPENING = 'This summary of a conversation is too long:';

/**
 * The second request when a summary came back over its limit: condense that summary, told its
 * size and the target, keeping every fact.
 */
export function buildCondenseRequest(input: {
  rules?: string;
  summary: string;
  maxChars: number;
}): SummarizerRequest {
  return {
    system: systemOf(input.rules),
    prompt: [
      `${CONDENSE_OPENING} ${input.summary.length} characters, and the limit is ${input.maxChars}.`,
      `<summary>\n${input.summary}\n</summary>`,
      `Rewrite it in at most ${input.maxChars} characters. Keep every fact in it (names, numbers, paths, ids exactly as written); shorten the wording and drop repetition first. Output only the summary.`,
    ].join('\n\n'),
  };
}

/** Opens the list of exact details a summarizer request asks to keep. */
export const DETAILS_OPENING = 'Exact details to keep in the summary, each exactly as written:';

/** The exact details a summary must keep, one per line (the data either prompt form can carry). */
export function detailsToKeep(details: readonly string[]): string {
  return `${DETAILS_OPENING}\n${details.map((d) => `- ${d}`).join('\n')}`;
}

/** Opens the request that asks for the exact details a summary left out. */
export const MISSING_DETAILS_OPENING = 'This summary of a conversation left out exact details it must keep:';

/**
 * The one second request when a summary dropped exact details: the summary and the details it
 * lacks, to be written in within the same limit.
 */
export function buildMissingDetailsRequest(input: {
  rules?: string;
  summary: string;
  missing: readonly string[];
  maxChars: number;
}): SummarizerRequest {
  return {
    system: systemOf(input.rules),
    prompt: [
      `${MISSING_DETAILS_OPENING}\n${input.missing.map((d) => `- ${d}`).join('\n')}`,
      `<summary>\n${input.summary}\n</summary>`,
      `Rewrite the summary so that it contains each of these details exactly as written, in at most ${input.maxChars} characters. Keep every fact already in it. Output only the summary.`,
    ].join('\n\n'),
  };
}

function systemOf(rules: string | undefined): string {
  return rules?.trim() ? rules : DEFAULT_SUMMARIZER_RULES;
}

/**
 * The slice as summarizer input, one line per message: `[i] role: text` with `i` the transcript
 * index (`firstIndex` is the slice's start), whitespace collapsed, each message capped at
 * `maxMessageChars` with a marker (or, when given, by its condensed form); tool-call-only assistant messages as `(tool calls: a, b)`;
 * tool results by their one-line summary then the head of their output (capped like any
 * message), so facts that exist only in a tool's output can be summarized; thinking and replies
 * replaced by `/retry` omitted.
 */
export function renderSliceLines(
  slice: readonly Message[],
  options: {
    maxMessageChars: number;
    firstIndex?: number;
    /** Messages over `maxMessageChars` already condensed on their own: their condensed text stands for them, uncapped. */
    condensed?: ReadonlyMap<Message, string>;
  },
): string[] {
  const first = options.firstIndex ?? 0;
  // A reply `/retry` replaced was rejected: its text is not the conversation's (its tool calls ran,
  // and the tool log keeps them).
  return slice.flatMap((message, k) =>
    message.replaced
      ? []
      : [
          `[${first + k}] ${message.role}: ${lineText(message, options.maxMessageChars, options.condensed?.get(message))}`,
        ],
  );
}

function lineText(message: Message, maxChars: number, condensed: string | undefined): string {
  const shown = (text: string) =>
    condensed !== undefined ? collapseWhitespace(condensed) : capText(text, maxChars);
  if (message.role === 'tool') {
    const output = collapseWhitespace(message.content);
    return output ? `${toolEntryLine(message)} — output: ${shown(output)}` : toolEntryLine(message);
  }
  const parts: string[] = [];
  const text = collapseWhitespace(message.content);
  if (text) parts.push(shown(text));
  if (message.tool_calls?.length) {
    parts.push(`(tool calls: ${message.tool_calls.map((call) => call.function.name).join(', ')})`);
  }
  // The summarizer reads text only: an image is named, so the summary can say what was shown.
  const named = (message.attachments ?? [])
    .filter((a) => a.kind === 'image')
    .map((a) => `[image: ${a.path}]`);
  const images = message.images?.length ?? 0;
  if (named.length) parts.push(named.join(' '));
  else if (images) parts.push(`(${images} image${images === 1 ? '' : 's'} attached)`);
  if (message.interrupted) parts.push('(reply interrupted)');
  return parts.length ? parts.join(' ') : '(empty)';
}
