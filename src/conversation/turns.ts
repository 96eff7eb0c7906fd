import type { Message, ToolCall } from './message.js';

/**
 * Index of the newest turn's user message, or -1 when there is none. Turns are the unit of
 * compaction, so a boundary at a user message never separates `tool_calls` from their results.
 */
export function lastTurnStart(transcript: readonly Message[]): number {
  for (let i = transcript.length - 1; i >= 0; i--) if (transcript[i].role === 'user') return i;
  return -1;
}

/** A tool call by where it is: the assistant message's id and the call's index among its calls. */
export interface StartedToolCall {
  message: number;
  call: number;
}

/**
 * The tool calls at the end of the transcript that have no result: the newest assistant message
 * with calls, when fewer tool messages than calls follow it (ochat was killed while a call waited).
 * Results follow their calls in order, so the missing ones are the last.
 */
export function unansweredToolCalls(transcript: readonly Message[]): ToolCall[] {
  const open = openToolCalls(transcript);
  return open ? (open.message.tool_calls ?? []).slice(open.answered) : [];
}

/** The next tool call to get a result (the first unanswered one of the newest turn), if any. */
export function nextToolCall(transcript: readonly Message[]): StartedToolCall | undefined {
  const open = openToolCalls(transcript);
  return open && { message: open.message.id, call: open.answered };
}

/** The newest assistant message with calls not all answered, and how many are. */
function openToolCalls(transcript: readonly Message[]): { message: Message; answered: number } | undefined {
  let results = 0;
  for (let i = transcript.length - 1; i >= 0; i--) {
    const message = transcript[i];
    if (message.replaced) continue;
    if (message.role === 'tool') {
      results++;
      continue;
    }
    if (message.role !== 'assistant' || !message.tool_calls || results >= message.tool_calls.length)
      return undefined;
    return { message, answered: results };
  }
  return undefined;
}
