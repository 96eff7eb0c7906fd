import { describe, expect, it } from 'vitest';
import { type ChatContinuation, continuationFits } from '../../src/compaction/continuation.js';

/** A continued request whose one message is estimated at 1,364 tokens (4 chars a token, 4 of overhead). */
const messages = [{ role: 'system' as const, content: 'x'.repeat(1360 * 4) }];

/** At 2048, a 240-token summary's room, and an ask estimated at 349 tokens (the bench's first compaction). */
const fits = (continuation: ChatContinuation) =>
  continuationFits(
    { charsPerToken: 4, summaryTokens: 240, summarizerNumCtx: 2048, continuation, fixedTokens: 0 },
    349,
  );

describe('continuationFits', () => {
  it('keeps the margin on the whole request while only estimated: 1,364 + 353 + 240 is over 90% of 2048', () => {
    expect(fits({ messages, shortened: [] })).toBe(false);
  });

  it('where the server counted the request, keeps the margin on the ask alone: 1,364 + 353 / 0.9 + 240 fits 2048', () => {
    expect(fits({ messages, shortened: [], counted: 1364 })).toBe(true);
  });

  it('scales the ask like the count scaled the request: counted 10% over its estimate, it no longer fits', () => {
    expect(fits({ messages, shortened: [], counted: 1500 })).toBe(false);
  });
});
