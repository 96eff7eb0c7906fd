import type { Message, WireMessage } from '../conversation/message.js';
import { estimateMessagesTokens } from '../conversation/token-estimate.js';
import { toolEntryLine } from './tool-entries.js';

/** Chars of a tool output's head kept when it is shortened to fit. */
export const DEFAULT_FIT_HEAD_CHARS = 1000;

/**
 * When the newest turn alone exceeds the room (`numCtx − reserve` less the system message),
 * shortens its tool outputs, oldest first, to their head plus their one-line summary — and,
 * if that is not enough, to the summary alone — rather than letting the server drop them.
 * Older turns of the tail are left alone: shrinking them is compaction's job. Returns the tail
 * (a new array when anything changed; inputs are never mutated).
 */
export function fitNewestTurn(input: {
  head: readonly WireMessage[];
  tail: readonly WireMessage[];
  /** The transcript message each tail entry came from (for its summary line). */
  sources: readonly Message[];
  room: number;
  charsPerToken: number;
  headChars?: number;
  /** Told, once the tail is final, of each tool output shortened and how many chars of its head it kept. */
  onShortened?: (source: Message, headChars: number) => void;
}): WireMessage[] {
  const { head, sources, charsPerToken } = input;
  const tail = [...input.tail];
  const kept = new Map<Message, number>();
  const told = () => {
    for (const [source, headChars] of kept) input.onShortened?.(source, headChars);
    return tail;
  };
  let start = -1;
  for (let i = tail.length - 1; i >= 0; i--) {
    if (tail[i].role === 'user') {
      start = i;
      break;
    }
  }
  if (start < 0) return tail;
  const room = input.room - estimateMessagesTokens(head, charsPerToken);
  const newestTokens = () => estimateMessagesTokens(tail.slice(start), charsPerToken);
  if (newestTokens() <= room) return tail;
  for (const headChars of [input.headChars ?? DEFAULT_FIT_HEAD_CHARS, 0]) {
    for (let i = start; i < tail.length; i++) {
      if (tail[i].role !== 'tool') continue;
      const shortened = shortenToolOutput(tail[i].content, toolEntryLine(sources[i]), headChars);
      if (shortened.length >= tail[i].content.length) continue;
      kept.set(sources[i], Math.min(headChars, tail[i].content.length));
      tail[i] = { ...tail[i], content: shortened };
      if (newestTokens() <= room) return told();
    }
  }
  return told();
}

/** A tool output cut to its head, with a note saying so and the call's one-line summary. */
export function shortenToolOutput(content: string, summaryLine: string, headChars: number): string {
  const head = content.slice(0, headChars).trimEnd();
  const note = `[output shortened to fit the context window, ${content.length - head.length} chars omitted; summary: ${summaryLine}]`;
  return head ? `${head}\n… ${note}` : note;
}
