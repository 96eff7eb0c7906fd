import type { Message } from './message.js';

/**
 * Whether a turn starts at index `i`: a user message. Turns are the unit of compaction, so a
 * boundary here never separates an assistant's `tool_calls` from their results.
 */
export function isTurnStart(transcript: readonly Message[], i: number): boolean {
  return transcript[i]?.role === 'user';
}

/** Indices of every turn start (user message), ascending. */
export function turnStartIndices(transcript: readonly Message[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i < transcript.length; i++) if (transcript[i].role === 'user') starts.push(i);
  return starts;
}

/** Index of the newest turn's user message, or -1 when there is none. */
export function lastTurnStart(transcript: readonly Message[]): number {
  for (let i = transcript.length - 1; i >= 0; i--) if (transcript[i].role === 'user') return i;
  return -1;
}
