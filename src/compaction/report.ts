import { formatTokens } from '../conversation/format-tokens.js';
import type { CompactionResult } from './compactor.js';

/**
 * The one-line report of a compaction: `Compacted 12 messages: 6.1k → 1.2k tokens (75% → 15% of 8k)`,
 * plus `; summary cut: 312 tokens dropped` when a summary had to be cut to its budget, and what
 * the server cut off a summarizer reply at its length limit.
 */
export function formatCompactionReport(result: CompactionResult): string {
  const { messagesSummarized: n, tokensBefore, tokensAfter, numCtx } = result;
  const percent = (tokens: number) => `${numCtx > 0 ? Math.round((tokens / numCtx) * 100) : 0}%`;
  return (
    `Compacted ${n} message${n === 1 ? '' : 's'}: ${formatTokens(tokensBefore)} → ${formatTokens(tokensAfter)} tokens ` +
    `(${percent(tokensBefore)} → ${percent(tokensAfter)} of ${formatTokens(numCtx)})` +
    summaryCut(result)
  );
}

function summaryCut({ cutTokens, endsLost }: CompactionResult): string {
  const parts: string[] = [];
  if (endsLost > 0) {
    parts.push(
      endsLost === 1
        ? "the summarizer's reply ran past its length limit and lost its end"
        : `${endsLost} summarizer replies ran past their length limit and lost their ends`,
    );
  }
  if (cutTokens > 0) parts.push(`${cutTokens} tokens dropped (/summary shows them)`);
  return parts.length ? `; summary cut: ${parts.join('; ')}` : '';
}
