import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Budgets } from '../../src/compaction/budgets.js';
import { planCompaction } from '../../src/compaction/plan.js';
import type { CompactionRecord } from '../../src/conversation/compaction-record.js';
import type { Message } from '../../src/conversation/message.js';
import { estimateMessageTokens } from '../../src/conversation/token-estimate.js';
import { lastTurnStart } from '../../src/conversation/turns.js';
import {
  buildTranscript,
  compactionRecord,
  transcriptArb,
  turnStartIndices,
} from '../conversation/fixtures.js';

const budgets = (keepRecent: number): Budgets => ({
  reserve: 0,
  keepRecent,
  summary: 0,
  numCtx: 100_000,
  scaled: false,
});
const previous = (upto: number): CompactionRecord => compactionRecord(upto);
const ten = () => 10;

// Turns start at 0, 2, 6, 8; each message costs 10.
const transcript = buildTranscript([
  { user: 'u0', steps: [{ reply: 'a1' }] },
  { user: 'u2', steps: [{ tools: [{ name: 'read_file', output: 'x' }] }, { reply: 'a5' }] },
  { user: 'u6', steps: [{ reply: 'a7' }] },
  { user: 'u8', steps: [{ reply: 'a9' }] },
]);

describe('planCompaction', () => {
  it('keeps whole newest turns within keepRecent and summarizes the rest', () => {
    expect(planCompaction({ transcript, budgets: budgets(40), estimate: ten })).toEqual({
      from: 0,
      upto: 6,
      slice: transcript.slice(0, 6),
    });
    expect(planCompaction({ transcript, budgets: budgets(79), estimate: ten })?.upto).toBe(6);
    expect(planCompaction({ transcript, budgets: budgets(80), estimate: ten })?.upto).toBe(2);
  });

  it('keeps the newest turn whole even when it alone exceeds keepRecent', () => {
    expect(planCompaction({ transcript, budgets: budgets(0), estimate: ten })?.upto).toBe(8);
  });

  it('leaves at least one turn to summarize when everything would fit', () => {
    expect(planCompaction({ transcript, budgets: budgets(1e9), estimate: ten })).toEqual({
      from: 0,
      upto: 2,
      slice: transcript.slice(0, 2),
    });
  });

  it('starts from the previous boundary and only moves forward', () => {
    expect(
      planCompaction({ transcript, previous: previous(6), budgets: budgets(1e9), estimate: ten }),
    ).toEqual({
      from: 6,
      upto: 8,
      slice: transcript.slice(6, 8),
    });
    expect(
      planCompaction({ transcript, previous: previous(8), budgets: budgets(0), estimate: ten }),
    ).toBeNull();
  });

  it('returns null when only the newest turn exists', () => {
    expect(
      planCompaction({ transcript: transcript.slice(0, 2), budgets: budgets(0), estimate: ten }),
    ).toBeNull();
    expect(planCompaction({ transcript: [], budgets: budgets(0), estimate: ten })).toBeNull();
    expect(
      planCompaction({ transcript: transcript.slice(3, 6), budgets: budgets(0), estimate: ten }),
    ).toBeNull();
  });

  it('never splits a tool cycle, moves forward, keeps the newest turn, and keeps about keepRecent', () => {
    fc.assert(
      fc.property(transcriptArb, fc.nat(), fc.nat(20_000), (messages: Message[], pick, keepRecent) => {
        const starts = turnStartIndices(messages);
        const from = [0, ...starts][pick % (starts.length + 1)];
        const estimate = (m: Message) => estimateMessageTokens(m);
        const plan = planCompaction({
          transcript: messages,
          previous: from > 0 ? previous(from) : undefined,
          budgets: budgets(keepRecent),
          estimate,
        });
        const newest = lastTurnStart(messages);
        if (!plan) {
          expect(newest).toBeLessThanOrEqual(from);
          return;
        }
        expect(plan.from).toBe(from);
        expect(plan.upto).toBeGreaterThan(from);
        expect(plan.upto).toBeLessThanOrEqual(newest);
        expect(messages[plan.upto].role).toBe('user');
        expect(plan.slice).toEqual(messages.slice(from, plan.upto));
        // Tool results on the same side as the assistant message that called them.
        messages.forEach((m, j) => {
          if (m.role !== 'tool') return;
          let k = j - 1;
          while (messages[k].role === 'tool') k--;
          expect(messages[k].tool_calls).toBeDefined();
          expect(k < plan.upto).toBe(j < plan.upto);
        });
        const cost = (a: number, b: number) => messages.slice(a, b).reduce((s, m) => s + estimate(m), 0);
        const tail = cost(plan.upto, messages.length);
        if (plan.upto < newest) expect(tail).toBeLessThanOrEqual(keepRecent);
        // One more whole turn would not have fitted.
        const earlier = starts.filter((s) => s > from && s < plan.upto).pop();
        if (earlier !== undefined) expect(tail + cost(earlier, plan.upto)).toBeGreaterThan(keepRecent);
      }),
    );
  });
});
