import type { Message, WireMessage } from '../conversation/message.js';
import { estimateMessagesTokens, MESSAGE_OVERHEAD_TOKENS } from '../conversation/token-estimate.js';
import {
  CutTally,
  type FollowUps,
  foldStep,
  keepDetails,
  listedDetails,
  type RoomForDetails,
  SUMMARIZER_WINDOW_MARGIN,
  type SummarizerAsk,
  type SummarizerCall,
  type SummaryCut,
  standaloneFollowUps,
  summaryMaxChars,
} from './chunking.js';
import { buildContinuationPrompt, type SummaryFollowUp } from './summarizer-prompt.js';

/**
 * The chat's own request as far as the slice to summarize: what a summarizer that is the chat
 * model continues, so the server reuses the KV cache of the chat's last request for all of it.
 */
export interface ChatContinuation {
  /** The system message (with the summary in force), then the slice's messages as they were sent. */
  messages: readonly WireMessage[];
  /** Messages of the slice the request sent shortened (tool outputs cut to fit): given whole in the prompt. */
  shortened: readonly Message[];
  /**
   * Tokens its tool definitions take at the server, where known to differ from the estimate
   * (0: the server's template renders none, as llama-server's chatml); absent: the estimate.
   */
  toolTokens?: number;
}

/**
 * Whether the chat's request with an ask of `askTokens` fits the summarizer's window with the
 * reply's room (the margin every summarizer request keeps, chunking.ts).
 */
export function continuationFits(
  input: SummarizerCall & { continuation: ChatContinuation; fixedTokens: number },
  askTokens: number,
): boolean {
  const tokens =
    input.fixedTokens +
    estimateMessagesTokens(input.continuation.messages, input.charsPerToken) +
    askTokens +
    MESSAGE_OVERHEAD_TOKENS +
    input.summaryTokens;
  return tokens <= Math.floor(input.summarizerNumCtx * SUMMARIZER_WINDOW_MARGIN);
}

/**
 * Summarizes the slice by continuing the chat's own request with one user message (the rules,
 * what to fold, the messages given again, the limit): one request, whose prompt the server
 * has all but that message of. Its follow-ups (a summary over the limit, exact details left out)
 * are that request again with the ask saying so: the server has all but the ask's end of those
 * (a standalone one would carry the summary, all of it evaluated anew). Undefined when that cannot be done — the request would not fit
 * the window with the reply's room (the standalone prompt then summarizes in chunks), or the
 * model called a tool instead of writing (nothing stops it on Ollama): the caller then uses
 * the standalone prompt.
 */
export async function continueChat(
  input: SummarizerCall &
    RoomForDetails & {
      continuation: ChatContinuation;
      /** The system message carries a summary section, to be folded in. */
      hasSummary: boolean;
      /** `[i] role: text` lines of the messages given again: sent shortened (whole here), or long (condensed). */
      againLines: readonly string[];
      /** Exact details to ask for (details.ts): listed in the ask, then checked like the standalone prompt's. */
      details: readonly string[];
      /** Tokens the request carries besides its messages: the chat's tool definitions. */
      fixedTokens: number;
    },
): Promise<{ narrative: string; cut: SummaryCut | undefined } | undefined> {
  const { messages } = input.continuation;
  const texts = messages.map((message) => message.content);
  const maxChars = summaryMaxChars(input, texts);
  const prompt = (options: { wasCutOff?: boolean; followUp?: SummaryFollowUp; maxChars?: number }) =>
    buildContinuationPrompt({
      rules: input.rules,
      hasSummary: input.hasSummary,
      againLines: input.againLines,
      details: listedDetails(input.details),
      focus: input.focus,
      maxChars,
      ...options,
    });
  if (!continuationFits(input, input.estimate(prompt({ wasCutOff: true })))) return undefined;
  const asking = (text: string): SummarizerAsk => ({ system: '', prompt: text, continues: messages });
  // The follow-ups continue it too: the same request again, the ask saying what to rework; one
  // that would not fit (its notice is longer than the fold's) is asked on its own, as before.
  const followUp = (followUp: SummaryFollowUp, limit: number) => {
    const text = prompt({ followUp, maxChars: limit });
    return continuationFits(input, input.estimate(text)) ? asking(text) : undefined;
  };
  const standalone = standaloneFollowUps(input);
  const followUps: FollowUps = {
    condense: (summary, limit) =>
      followUp({ kind: 'over-limit', chars: summary.length }, limit) ?? standalone.condense(summary, limit),
    missingDetails: (summary, missing, limit) =>
      followUp({ kind: 'missing-details', missing }, limit) ??
      standalone.missingDetails(summary, missing, limit),
  };
  const call = { ...input, followUps };
  const step = await foldStep(call, maxChars, (wasCutOff) => asking(prompt({ wasCutOff })));
  if (step.calledTools) return undefined;
  const cuts = new CutTally();
  const narrative = await keepDetails(call, cuts.add(step), input.details, { maxChars, texts, cuts });
  return { narrative, cut: cuts.total() };
}
