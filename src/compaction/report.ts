import { formatTokens } from '../conversation/format-tokens.js';
import type { CompactionResult } from './compactor.js';

/**
 * The one-line report of a compaction: `Compacted 12 messages: 6.1k → 1.2k tokens (75% → 15% of 8k)`,
 * plus `; summary cut: 312 tokens dropped` when a summary had to be cut to its budget.
 */
export function formatCompactionReport(result: CompactionResult): string {
  const { messagesSummarized: n, tokensBefore, tokensAfter, numCtx } = result;
  const percent = (tokens: number) => `${numCtx > 0 ? Math.round((tokens / numCtx) * 100) : 0}%`;
  return (
    `Compacted ${n} message${n === 1 ? '' : 's'}: ${formatTokens(tokensBefore)} → ${formatTokens(tokensAfter)} tokens ` +
    `(${percent(tokensBefore)} → ${percent(tokensAfter)} of ${formatTokens(numCtx)})` +
    (result.cutTokens > 0 ? `; summary cut: ${result.cutTokens} tokens dropped (/summary shows them)` : '')
  );
}
