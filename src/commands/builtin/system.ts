import type { SlashCommand } from '../command.js';

/** `/system [text]`: shows or replaces the system prompt; `/system clear` removes it. */
export const systemCommand: SlashCommand = {
  name: 'system',
  summary: 'Show or set the system prompt (/system clear removes it)',
  usage: '/system [text|clear]',
  run(host, args) {
    if (!args) {
      host.show(host.system ? `System prompt:\n${host.system}` : 'No system prompt is set.');
      return;
    }
    if (args === 'clear') {
      host.setSystem(undefined);
      host.notice('success', 'System prompt removed.');
      return;
    }
    host.setSystem(args);
    host.notice('success', 'System prompt set.');
  },
};
