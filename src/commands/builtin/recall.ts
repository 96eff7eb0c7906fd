import type { SlashCommand } from '../command.js';

/** `/recall TEXT`: searches the whole history, compacted messages included, as the `recall` tool does for the model. */
export const recallCommand: SlashCommand = {
  name: 'recall',
  summary: 'Search the whole conversation, compacted messages included, for exact passages',
  usage: '/recall TEXT',
  runsWhileBusy: true,
  run(host, args) {
    if (!args.trim()) {
      host.screen.notice('error', 'What to look for? /recall TEXT');
      return;
    }
    host.screen.show(host.conversation.recall(args.trim()));
  },
};
