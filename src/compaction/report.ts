import { formatTokensChange } from '../conversation/format-tokens.js';
import type { CompactionResult } from './compactor.js';

/**
 * The one-line report of a compaction: `Compacted 12 messages: 6.1k → 1.2k tokens (75% → 15% of 8k)`,
 * plus `; summary cut: 312 tokens dropped` when a summary had to be cut to its budget, and what
 * the server cut off a summarizer reply at its length limit.
 */
export function formatCompactionReport(result: CompactionResult): string {
  const { messagesSummarized: n, tokensBefore, tokensAfter, numCtx } = result;
  return (
    `Compacted ${n} message${n === 1 ? '' : 's'}${condensed(result)}: ${formatTokensChange(tokensBefore, tokensAfter, numCtx)}` +
    detailsKept(result) +
    summaryCut(result) +
    cutMessages(result)
  );
}

/** ` (a 71 kB paste condensed in 12 parts, a 20 kB read_file output in 4)`: the extra summarizer calls. */
function condensed({ condensed }: Pick<CompactionResult, 'condensed'>): string {
  if (!condensed?.length) return '';
  const parts = (n: number) => `${n} part${n === 1 ? '' : 's'}`;
  const [first, ...rest] = condensed;
  return ` (${[`${first.label} condensed in ${parts(first.parts)}`, ...rest.map((m) => `${m.label} in ${parts(m.parts)}`)].join(', ')})`;
}

/** `; cut for the summarizer (cut_long_messages): [12] a 71 kB paste, 70,357 of 71,357 chars unseen`. */
function cutMessages({ cutMessages }: Pick<CompactionResult, 'cutMessages'>): string {
  if (!cutMessages?.length) return '';
  const each = cutMessages.map(
    (m) =>
      `[${m.index}] ${m.label}, ${m.unseen.toLocaleString('en')} of ${m.chars.toLocaleString('en')} chars unseen`,
  );
  return `; cut to their head for the summarizer (compaction.cut_long_messages): ${each.join('; ')}`;
}

/** `; 11 exact details kept (7 by the summary, 4 in the details list)`, and how many were folded. */
function detailsKept({ details }: Pick<CompactionResult, 'details'>): string {
  if (!details) return '';
  const { bySummary, inList, folded } = details;
  const kept = bySummary + inList;
  if (!kept && !folded) return '';
  const plural = (n: number) => `${n} exact detail${n === 1 ? '' : 's'}`;
  const how = kept ? ` (${bySummary} by the summary, ${inList} in the details list)` : '';
  const lost = folded ? `; ${plural(folded)} folded to fit the summary budget (recall still finds them)` : '';
  return `; ${plural(kept)} kept${how}${lost}`;
}

function summaryCut(result: CompactionResult): string {
  const said = describeSummaryCut(result);
  if (!said) return '';
  return `; summary cut: ${said}${result.cutTokens > 0 ? ' (/summary shows them)' : ''}`;
}

/**
 * What a compaction cut from its summary, in words ('' when nothing): tokens dropped to fit the
 * budget, and replies the server cut off at their length limit. The report and the session views say it alike.
 */
export function describeSummaryCut({ cutTokens, endsLost }: { cutTokens: number; endsLost: number }): string {
  const parts: string[] = [];
  if (endsLost > 0) {
    parts.push(
      endsLost === 1
        ? "the summarizer's reply ran past its length limit and lost its end"
        : `${endsLost} summarizer replies ran past their length limit and lost their ends`,
    );
  }
  if (cutTokens > 0) parts.push(`${cutTokens} tokens dropped`);
  return parts.join('; ');
}
