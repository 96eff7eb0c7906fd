import type { SlashCommand } from '../command.js';

/** `/summary`: the summary the model currently sees, in full. */
export const summaryCommand: SlashCommand = {
  name: 'summary',
  summary: 'Show the current compaction summary in full',
  usage: '/summary',
  runsWhileBusy: true,
  run(host) {
    const record = host.compaction;
    if (!record) {
      host.show('No summary yet: the conversation has not been compacted. /compact does it now.');
      return;
    }
    const tools = record.toolEntries.length
      ? ['', `Tool calls (${record.toolEntries.length}):`, ...record.toolEntries.map((e) => `  - ${e}`)]
      : [];
    host.show(
      [
        `Summary of messages 1–${record.upto} (by ${record.model}, ${record.at}):`,
        '',
        record.narrative,
        ...tools,
      ].join('\n'),
    );
  },
};
