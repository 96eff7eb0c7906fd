import { describe, expect, it } from 'vitest';
import type { CompactionResult } from '../../src/compaction/compactor.js';
import { formatCompactionReport } from '../../src/compaction/report.js';

const result: CompactionResult = {
  messagesSummarized: 12,
  tokensBefore: 6144,
  tokensAfter: 1229,
  numCtx: 8192,
  model: 'qwen3',
  cutTokens: 0,
  endsLost: 0,
};

describe('formatCompactionReport', () => {
  it('says what was compacted in one line', () => {
    expect(formatCompactionReport(result)).toBe(
      'Compacted 12 messages: 6.1k → 1.2k tokens (75% → 15% of 8k)',
    );
  });

  it('says how much a cut summary dropped', () => {
    expect(formatCompactionReport({ ...result, cutTokens: 312 })).toBe(
      'Compacted 12 messages: 6.1k → 1.2k tokens (75% → 15% of 8k); summary cut: 312 tokens dropped (/summary shows them)',
    );
  });

  it('says when the server cut off a summarizer reply at its length limit, and how many', () => {
    expect(formatCompactionReport({ ...result, endsLost: 1 })).toBe(
      "Compacted 12 messages: 6.1k → 1.2k tokens (75% → 15% of 8k); summary cut: the summarizer's reply ran past its length limit and lost its end",
    );
    expect(formatCompactionReport({ ...result, endsLost: 2, cutTokens: 40 })).toBe(
      'Compacted 12 messages: 6.1k → 1.2k tokens (75% → 15% of 8k); summary cut: 2 summarizer replies ran past their length limit and lost their ends; 40 tokens dropped (/summary shows them)',
    );
  });

  it('speaks of one message in the singular', () => {
    expect(
      formatCompactionReport({
        ...result,
        messagesSummarized: 1,
        tokensBefore: 900,
        tokensAfter: 300,
        numCtx: 1000,
      }),
    ).toBe('Compacted 1 message: 900 → 300 tokens (90% → 30% of 1k)');
  });

  it('gives 0% for a window of 0 rather than dividing by it', () => {
    expect(formatCompactionReport({ ...result, numCtx: 0 })).toBe(
      'Compacted 12 messages: 6.1k → 1.2k tokens (0% → 0% of 0)',
    );
  });
});
