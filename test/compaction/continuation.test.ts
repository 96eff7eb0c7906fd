import { describe, expect, it } from 'vitest';
import {
  type ChatContinuation,
  continuableUpto,
  continuationFits,
} from '../../src/compaction/continuation.js';
import type { Message } from '../../src/conversation/message.js';
import { estimateTokens } from '../../src/conversation/token-estimate.js';

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

describe('continuableUpto', () => {
  // Ten messages, a turn every two; the chat's request up to message i counted at 300 × i tokens.
  const transcript = Array.from({ length: 10 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
  })) as Message[];
  const continuation = (upto: number): ChatContinuation => {
    const content = 'x'.repeat((300 * upto - 4) * 4);
    return { messages: [{ role: 'system', content }], shortened: [], counted: 300 * upto };
  };
  const upto = (worthIt: (upto: number) => boolean) =>
    continuableUpto({
      transcript,
      from: 0,
      planned: 8,
      continuation,
      fixedTokens: 0,
      worthIt,
      charsPerToken: 4,
      summaryTokens: 240,
      summarizerNumCtx: 2048,
      estimate: (text) => estimateTokens(text, 4),
      askFor: () => ({ hasSummary: false, details: [] }),
    });

  it('takes the latest earlier turn whose request leaves room for the ask and the reply (1,200 of 2048), not the standalone prompt', () => {
    expect(upto(() => true)).toBe(4);
  });

  it('keeps the planned boundary when a smaller slice is not worth it (the next request would be due again)', () => {
    expect(upto((boundary) => boundary > 4)).toBe(8);
  });
});
