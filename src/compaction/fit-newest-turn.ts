import type { Message, WireMessage } from '../conversation/message.js';
import { estimateMessagesTokens } from '../conversation/token-estimate.js';
import { toolEntryLine } from './tool-entries.js';

/**
 * When the newest turn alone exceeds the room (`numCtx − reserve` less the system message),
 * shortens its tool outputs, oldest first, to their head plus their one-line summary, each head as
 * long as the room allows (down to the summary alone, then the next output), rather than letting
 * the server drop them. Older turns of the tail are left alone: shrinking them is compaction's job
 * (and it runs first when they stand in the way). Returns the tail (a new array when anything
 * changed; inputs are never mutated).
 */
export function fitNewestTurn(input: {
  head: readonly WireMessage[];
  tail: readonly WireMessage[];
  /** The transcript message each tail entry came from (for its summary line). */
  sources: readonly Message[];
  room: number;
  charsPerToken: number;
  /** The most chars a shortened output's head keeps (default: as many as fit). */
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
  const fits = () => estimateMessagesTokens(tail.slice(start), charsPerToken) <= room;
  if (fits()) return tail;
  for (let i = start; i < tail.length; i++) {
    if (tail[i].role !== 'tool') continue;
    const whole = tail[i];
    const line = toolEntryLine(sources[i]);
    const shortenedTo = (chars: number) => {
      tail[i] = { ...whole, content: shortenToolOutput(whole.content, line, chars) };
    };
    shortenedTo(0);
    if (tail[i].content.length >= whole.content.length) {
      tail[i] = whole;
      continue;
    }
    if (!fits()) {
      kept.set(sources[i], 0);
      continue;
    }
    // The longest head that still fits: the model gets as much of the output as there is room for.
    let low = 0;
    let high = Math.min(whole.content.length - 1, input.headChars ?? Number.POSITIVE_INFINITY);
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      shortenedTo(middle);
      if (fits()) low = middle;
      else high = middle - 1;
    }
    shortenedTo(low);
    kept.set(sources[i], low);
    return told();
  }
  return told();
}

/** A tool output cut to its head, with a note saying so and the call's one-line summary. */
export function shortenToolOutput(content: string, summaryLine: string, headChars: number): string {
  const head = content.slice(0, headChars).trimEnd();
  const note = `[output shortened to fit the context window, ${content.length - head.length} chars omitted; summary: ${summaryLine}]`;
  return head ? `${head}\n… ${note}` : note;
}
