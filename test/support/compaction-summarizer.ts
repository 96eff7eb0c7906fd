/**
 * An emulated summarizer for compaction tests: recognises the summarizer's requests among the
 * chats the emulator sees, and answers them by "keeping what it is shown" — every fact token
 * (`FACT-…`) in the previous summary and in the new slice — so tests can follow facts through
 * any number of compactions.
 */
import {
  CONDENSE_OPENING,
  CONTINUATION_OPENING,
  MESSAGES_CLOSE,
  MESSAGES_OPEN,
  MISSING_DETAILS_NOTICE,
  MISSING_DETAILS_OPENING,
  OVER_LIMIT_NOTICE,
} from '../../src/compaction/summarizer-prompt.js';
import {
  DETAILS_HEADER,
  SUMMARY_FOOTER,
  SUMMARY_HEADER,
  TOOL_LOG_HEADER,
} from '../../src/compaction/summary.js';
import type { ChatRequestRecord, Emulator, Responder, ScriptedReply } from './emulator.js';

/** Opens the slice in the summarizer's prompt. */
export const SLICE_OPEN = `${MESSAGES_OPEN}\n`;

/** A fact tests plant in the conversation and look for later. */
export const FACT_PATTERN = /FACT-\w+/g;

/**
 * Whether a chat request is a summarizer call: system rules + one user message holding the slice,
 * or the over-long summary to condense — or the chat's own request continued by one user message
 * asking for the summary (`isContinuation`).
 */
export function isSummarizerRequest(req: Pick<ChatRequestRecord, 'body'>): boolean {
  const messages = req.body?.messages;
  return (
    continuesChat(req) ||
    (Array.isArray(messages) &&
      messages.length === 2 &&
      messages[0]?.role === 'system' &&
      messages[1]?.role === 'user' &&
      typeof messages[1].content === 'string' &&
      (messages[1].content.includes(SLICE_OPEN) ||
        messages[1].content.startsWith(CONDENSE_OPENING) ||
        messages[1].content.startsWith(MISSING_DETAILS_OPENING)))
  );
}

/** Whether a summarizer call continues the chat's own request (the slice as sent, then the ask): a fold's ask or a follow-up on its summary. */
export function continuesChat(req: Pick<ChatRequestRecord, 'body'>): boolean {
  const last = req.body?.messages?.at?.(-1);
  return (
    last?.role === 'user' && typeof last.content === 'string' && last.content.startsWith(CONTINUATION_OPENING)
  );
}

/**
 * Whether a summarizer call is a fold's ask that continues the chat's own request; the follow-ups
 * on its summary continue it too (`continuesChat`), and are told apart by `isFollowUpRequest`.
 */
export function isContinuation(req: Pick<ChatRequestRecord, 'body'>): boolean {
  return continuesChat(req) && !isFollowUpRequest(req);
}

/** Whether a summarizer call asks once more for the exact details a summary left out (on its own, or continuing the chat's request). */
export function isMissingDetailsRequest(req: Pick<ChatRequestRecord, 'body'>): boolean {
  if (continuesChat(req)) return summarizerPrompt(req).includes(MISSING_DETAILS_NOTICE);
  return isSummarizerRequest(req) && summarizerPrompt(req).startsWith(MISSING_DETAILS_OPENING);
}

/** Whether a summarizer call asks to condense an over-long summary (on its own, or continuing the chat's request). */
export function isCondenseRequest(req: Pick<ChatRequestRecord, 'body'>): boolean {
  if (continuesChat(req)) return summarizerPrompt(req).includes(OVER_LIMIT_NOTICE);
  return isSummarizerRequest(req) && summarizerPrompt(req).startsWith(CONDENSE_OPENING);
}

/** Whether a summarizer call is a follow-up on a summary (condense, missing details) rather than the first ask of a fold. */
export function isFollowUpRequest(req: Pick<ChatRequestRecord, 'body'>): boolean {
  return isCondenseRequest(req) || isMissingDetailsRequest(req);
}

/** The limit the summarizer is told, in characters (`at most N characters`). */
export function statedLimit(req: ChatRequestRecord): number {
  const match = /at most (\d+) characters/.exec(summarizerPrompt(req));
  if (!match) throw new Error('the summarizer request states no limit in characters');
  return Number(match[1]);
}

/**
 * A summarizer that keeps every fact it is shown and writes `factor` × the stated limit, as a
 * verbose model does: its facts spread through padding prose. factor 1: exactly up to the limit.
 */
export function writingToLimit(factor: number): (req: ChatRequestRecord) => ScriptedReply {
  return (req) => {
    const size = Math.floor(statedLimit(req) * factor);
    const words = ['Facts:', ...factsIn(summarizerInput(req))];
    // Padding words spread between the facts until the reply is `size` long; never a fact dropped.
    const gaps = words.map(() => [] as string[]);
    let length = words.join(' ').length;
    for (let i = 0; length + 5 <= size; i = (i + 1) % gaps.length) {
      gaps[i].push('yada');
      length += 5;
    }
    const text = words.map((word, i) => [word, ...gaps[i]].join(' ')).join(' ');
    return { content: text.padEnd(size, '.') };
  };
}

/** The user prompt of a summarizer request (previous summary, slice, focus, size limit; continued: the ask). */
export function summarizerPrompt(req: Pick<ChatRequestRecord, 'body'>): string {
  return String(req.body.messages.at(-1).content);
}

/**
 * Everything a summarizer call shows the model: its prompt, and, for a continuation, the
 * chat's system message (the summary in force) and the slice's messages before it.
 */
export function summarizerInput(req: Pick<ChatRequestRecord, 'body'>): string {
  return (req.body.messages as { content?: string }[]).map((message) => message.content ?? '').join('\n');
}

/**
 * The slice's messages in a summarizer request: the `[i] role: text` lines of its prompt, or, for
 * a continuation, the messages between the system message (if any) and the ask as `role: text`.
 */
export function sliceLines(req: Pick<ChatRequestRecord, 'body'>): string[] {
  if (continuesChat(req)) {
    return (req.body.messages as { role: string; content?: string }[])
      .slice(0, -1)
      .filter((message, i) => i > 0 || message.role !== 'system')
      .map((message) => `${message.role}: ${message.content ?? ''}`);
  }
  const prompt = summarizerPrompt(req);
  if (!prompt.includes(SLICE_OPEN)) return [];
  const start = prompt.indexOf(SLICE_OPEN) + SLICE_OPEN.length;
  const end = prompt.indexOf(`\n${MESSAGES_CLOSE}`, start);
  return prompt.slice(start, end).split('\n');
}

/** Distinct fact tokens in `text`, in order of first appearance. */
export function factsIn(text: string): string[] {
  return [...new Set(text.match(FACT_PATTERN) ?? [])];
}

/** A summary that keeps every fact the summarizer was shown (previous narrative and slice). */
export function keepWhatItIsShown(req: Pick<ChatRequestRecord, 'body'>): ScriptedReply {
  const facts = factsIn(summarizerInput(req));
  const seen = sliceLines(req).length;
  return {
    content: `Summary of ${seen} more messages.${facts.length ? ` Facts: ${facts.join(' ')}.` : ''}`,
  };
}

/**
 * The previous summary a summarizer request folds in (or the summary to condense or complete), '' if
 * none; for a continuation, the narrative of the summary section in the chat's system message.
 */
export function previousSummary(req: Pick<ChatRequestRecord, 'body'>): string {
  if (!continuesChat(req)) return /<summary>\n([\s\S]*?)\n<\/summary>/.exec(summarizerPrompt(req))?.[1] ?? '';
  const system = req.body.messages[0]?.role === 'system' ? String(req.body.messages[0].content) : '';
  const start = system.indexOf(`${SUMMARY_HEADER}\n`);
  if (start < 0) return '';
  const section = system.slice(
    start + SUMMARY_HEADER.length + 1,
    system.indexOf(`\n${SUMMARY_FOOTER}`, start),
  );
  const ends = [`\n\n${DETAILS_HEADER}`, `\n\n${TOOL_LOG_HEADER}`].map((header) => section.indexOf(header));
  return section.slice(0, Math.min(...ends.filter((end) => end >= 0), section.length));
}

/** A plain word: letters only, maybe followed by punctuation — no digit, path, id, address or code. */
const PLAIN_WORD = /^[A-Za-z][a-z]*[,.;!?]?$/;

/** Words of each slice line a gist keeps. */
const GIST_WORDS_PER_LINE = 8;

/**
 * A summarizer that keeps only the gist, as small local models do (deja-vu #543: file paths 9.8%
 * kept, numbers 1.9%, commands 0.2%): plain words of the previous summary and the first few of
 * each new line, every path, number, command, id, URL, email and date dropped, the list of
 * details to keep and any request to add them ignored; within the stated limit.
 */
export function gistOnly(req: ChatRequestRecord): ScriptedReply {
  const plain = (text: string) => text.split(/\s+/).filter((w) => PLAIN_WORD.test(w));
  const words = [
    ...plain(previousSummary(req)),
    ...sliceLines(req).flatMap((line) =>
      plain(line.replace(/^\[\d+\] \w+:/, '')).slice(0, GIST_WORDS_PER_LINE),
    ),
  ];
  const limit = statedLimit(req);
  // Over the limit, the oldest words go first.
  while (words.length > 1 && words.join(' ').length > limit) words.shift();
  return { content: words.join(' ') || 'Nothing of note.' };
}

/**
 * A summarizer that keeps everything it is shown, as a diligent model does: the previous summary
 * and every new line whole (role prefixes left out), the oldest words dropped only when that is
 * over the stated limit.
 */
export function keepEverything(req: ChatRequestRecord): ScriptedReply {
  const words = [
    ...previousSummary(req).split(/\s+/),
    ...sliceLines(req).flatMap((line) => line.replace(/^(?:\[\d+\] )?\w+:/, '').split(/\s+/)),
  ].filter(Boolean);
  const limit = statedLimit(req);
  let length = words.join(' ').length;
  while (words.length > 1 && length > limit) length -= (words.shift()?.length ?? 0) + 1;
  return { content: words.join(' ') || 'Nothing of note.' };
}

/** Summarizer requests the emulator has seen, in order. */
export function summarizerChats(emu: Emulator): ChatRequestRecord[] {
  return emu.chats.filter(isSummarizerRequest);
}

/** Ordinary chat requests (not the summarizer's) the emulator has seen, in order. */
export function conversationChats(emu: Emulator): ChatRequestRecord[] {
  return emu.chats.filter((c) => !isSummarizerRequest(c));
}

/** How a {@link compactionResponder} answers each kind of request; undefined → the default. */
export interface CompactionResponderOptions {
  /** The summarizer's answer; `call` counts summarizer calls from 1. Default: keepWhatItIsShown. */
  summarize?: (req: ChatRequestRecord, call: number) => ScriptedReply | undefined;
  /** The chat model's answer; `call` counts chat calls from 1. Default: the emulator's echo. */
  chat?: (req: ChatRequestRecord, call: number) => ScriptedReply | undefined;
}

/** A responder that routes summarizer calls and chat calls to separate scripts. */
export function compactionResponder(options: CompactionResponderOptions = {}): Responder {
  let summarizerCalls = 0;
  let chatCalls = 0;
  return (req) => {
    if (isSummarizerRequest(req)) {
      summarizerCalls += 1;
      return (options.summarize ?? keepWhatItIsShown)(req, summarizerCalls) ?? keepWhatItIsShown(req);
    }
    chatCalls += 1;
    return options.chat?.(req, chatCalls);
  };
}

/** A summarizer that fails its first `failures` calls with `fault`, then keeps what it is shown. */
export function failingSummarizer(
  failures: number,
  fault: ScriptedReply['fault'],
): (req: ChatRequestRecord, call: number) => ScriptedReply {
  return (req, call) => (call <= failures ? { fault } : keepWhatItIsShown(req));
}
