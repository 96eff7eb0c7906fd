import type { SlashCommand } from '../command.js';

/** `/clear`: starts a new, empty conversation with the same model and settings. */
export const clearCommand: SlashCommand = {
  name: 'clear',
  aliases: ['new'],
  summary: 'Start a new empty conversation',
  usage: '/clear',
  run(host) {
    host.conversation.clear();
  },
};
