import type { SlashCommand } from '../command.js';

/** `/system [text]`: shows or replaces the system prompt; `/system clear` removes it. */
export const systemCommand: SlashCommand = {
  name: 'system',
  summary: 'Show or set the system prompt (/system clear removes it)',
  usage: '/system [text|clear]',
  run(host, args) {
    if (!args) {
      if (host.system) host.show(`System prompt:\n${host.system}`);
      else if (host.modelSystem)
        host.show(`No system prompt is set; the model's own applies:\n${host.modelSystem}`);
      else host.show('No system prompt is set.');
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
