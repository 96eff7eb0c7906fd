import type { Message, ToolCall } from './message.js';

/**
 * Index of the newest turn's user message, or -1 when there is none. Turns are the unit of
 * compaction, so a boundary at a user message never separates `tool_calls` from their results.
 */
export function lastTurnStart(transcript: readonly Message[]): number {
  for (let i = transcript.length - 1; i >= 0; i--) if (transcript[i].role === 'user') return i;
  return -1;
}

/**
 * The tool calls at the end of the transcript that have no result: the newest assistant message
 * with calls, when fewer tool messages than calls follow it (ochat was killed while a call waited).
 * Results follow their calls in order, so the missing ones are the last.
 */
export function unansweredToolCalls(transcript: readonly Message[]): ToolCall[] {
  let results = 0;
  for (let i = transcript.length - 1; i >= 0; i--) {
    const message = transcript[i];
    if (message.replaced) continue;
    if (message.role === 'tool') {
      results++;
      continue;
    }
    if (message.role !== 'assistant' || !message.tool_calls?.length) return [];
    return message.tool_calls.slice(results);
  }
  return [];
}
