import { formatRecall, RECALL_TOOL_NAME, searchHistory } from '../../conversation/recall-search.js';
import type { Tool } from '../tool.js';

/** `recall`'s arguments. */
export type RecallArgs = { query: string };

/**
 * Searches the whole conversation, compacted messages included, and returns the best passages
 * verbatim: compaction deletes nothing, and this makes it reachable for the model. Read-only.
 */
export const recallTool: Tool<RecallArgs> = {
  name: RECALL_TOOL_NAME,
  // Short: its definition rides in every request once the chat is compacted.
  description: 'Search the whole conversation, summarized parts too, for exact passages.',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string' } },
    required: ['query'],
  },
  keyArgument: (args) => args.query,
  async run(args, ctx) {
    const query = typeof args.query === 'string' ? args.query : '';
    if (!query.trim()) return { ok: false, output: 'recall needs a query.', details: { error: 'no query' } };
    const result = searchHistory(ctx.history?.() ?? [], query);
    return {
      ok: true,
      output: formatRecall(query, result),
      details: { passages: result.passages.length, more: result.more },
    };
  },
  summaryLine(args, outcome) {
    if (!outcome.ok) return `recall "${args.query}" failed`;
    return `recall "${args.query}" (${outcome.details?.passages} passages)`;
  },
};
