import type { CompactionRecord } from '../conversation/compaction-record.js';
import type { Message } from '../conversation/message.js';
import { lastTurnStart } from '../conversation/turns.js';
import type { Budgets } from './budgets.js';

/** What one compaction summarizes: `transcript[from..upto)`. */
export interface CompactionPlan {
  /** Where the previous verbatim tail started (`previous?.upto ?? 0`). */
  from: number;
  /** Where the new verbatim tail starts: a user message, after `from`. */
  upto: number;
  /** The messages to summarize (a copy). */
  slice: Message[];
}

/**
 * Chooses the new boundary: walking back from the end over whole turns, the tail keeps the
 * newest turn whole plus older turns while the total stays within `keepRecent`. The boundary
 * falls only at a user message (so tool calls and their results stay together) and only moves
 * forward. Null when there is nothing worth compacting (only the newest turn since `from`).
 */
export function planCompaction(input: {
  transcript: readonly Message[];
  previous?: CompactionRecord;
  budgets: Budgets;
  estimate: (message: Message) => number;
}): CompactionPlan | null {
  const { transcript, budgets, estimate } = input;
  const from = input.previous?.upto ?? 0;
  const newest = lastTurnStart(transcript);
  if (newest <= from) return null;
  let tail = 0;
  for (let i = newest; i < transcript.length; i++) tail += estimate(transcript[i]);
  let upto = newest;
  let turn = 0;
  // Walk back message by message, committing the boundary at each user message that still fits.
  for (let i = newest - 1; i > from; i--) {
    turn += estimate(transcript[i]);
    if (transcript[i].role !== 'user') continue;
    if (tail + turn > budgets.keepRecent) break;
    tail += turn;
    turn = 0;
    upto = i;
  }
  return { from, upto, slice: transcript.slice(from, upto) };
}
