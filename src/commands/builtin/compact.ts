import type { SlashCommand } from '../command.js';

/** `/compact [instructions]`: summarizes older messages now; instructions focus this one run. */
export const compactCommand: SlashCommand = {
  name: 'compact',
  summary: 'Summarize older messages now (optional focus instructions)',
  usage: '/compact [instructions]',
  async run(host, args) {
    await host.compaction.compact(args || undefined);
  },
};
