import { formatWhen } from '../../text/format-when.js';
import type { SlashCommand } from '../command.js';

/** `/summary`: the summary the model currently sees, in full. */
export const summaryCommand: SlashCommand = {
  name: 'summary',
  summary: 'Show the current compaction summary in full',
  usage: '/summary',
  runsWhileBusy: true,
  run(host) {
    const record = host.compaction.record;
    if (!record) {
      host.screen.show('No summary yet: the conversation has not been compacted. /compact does it now.');
      return;
    }
    // The exact lines, as stored on each tool message; the model may see them folded.
    const calls = host.compaction.compactedToolCalls();
    const tools = calls.length ? ['', `Tool calls (${calls.length}):`, ...calls.map((e) => `  - ${e}`)] : [];
    const folded =
      record.toolEntries.length !== calls.length || record.toolEntries.some((e, i) => e !== calls[i]);
    if (calls.length && folded) {
      tools.push(
        `The model sees them folded into ${record.toolEntries.length} line${record.toolEntries.length === 1 ? '' : 's'} to fit the summary budget:`,
        ...record.toolEntries.map((e) => `  - ${e}`),
      );
    }
    // The exact details the summary left out, as the model sees them beside it, and what was folded.
    const details: string[] = [];
    if (record.details?.length || record.detailsFolded) {
      const listed = record.details ?? [];
      details.push('', `Exact details the summary left out, kept verbatim beside it (${listed.length}):`);
      details.push(...listed.map((d) => `  - ${d.text}${d.context ? ` (${d.context})` : ''}`));
      if (record.detailsFolded) {
        details.push(
          `${record.detailsFolded} exact detail${record.detailsFolded === 1 ? ' was' : 's were'} folded to fit the summary budget (a paste's first, then the oldest); the history (session file, /history) keeps them.`,
        );
      }
    }
    const cut: string[] = [];
    if (record.cut?.text) {
      cut.push(
        '',
        `Cut from the summarizer's reply to fit the budget (about ${record.cut.tokens} tokens):`,
        record.cut.text,
      );
    }
    if (record.cut?.endsLost) {
      cut.push('', "The summarizer's reply ran past its length limit: the server cut off its end, unseen.");
    }
    host.screen.show(
      [
        `Summary of messages 1–${record.upto} (by ${record.model}, ${formatWhen(record.at)}):`,
        '',
        record.narrative,
        ...details,
        ...tools,
        ...cut,
      ].join('\n'),
    );
  },
};
