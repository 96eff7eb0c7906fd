import { CommandUsageError, type SlashCommand } from '../command.js';

/**
 * `/retry`: asks the model again for the reply to the last message. The old reply (with its tool
 * calls and results, if any) stays in the history, marked replaced; the model never sees it again.
 */
export const retryCommand: SlashCommand = {
  name: 'retry',
  summary: 'Regenerate the last reply (the old one stays in /history, marked replaced)',
  usage: '/retry',
  async run(host, args) {
    if (args) throw new CommandUsageError('/retry takes no arguments.');
    await host.conversation.retryReply();
  },
};
