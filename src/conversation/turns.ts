import type { Message } from './message.js';

/**
 * Index of the newest turn's user message, or -1 when there is none. Turns are the unit of
 * compaction, so a boundary at a user message never separates `tool_calls` from their results.
 */
export function lastTurnStart(transcript: readonly Message[]): number {
  for (let i = transcript.length - 1; i >= 0; i--) if (transcript[i].role === 'user') return i;
  return -1;
}
