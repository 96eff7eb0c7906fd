import type { SlashCommand } from '../command.js';

/** `/system [text]`: shows or replaces the system prompt; `/system clear` removes it. */
export const systemCommand: SlashCommand = {
  name: 'system',
  summary: 'Show or set the system prompt (/system clear removes it)',
  usage: '/system [text|clear]',
  run(host, args) {
    if (!args) {
      if (host.model.system) host.screen.show(`System prompt:\n${host.model.system}`);
      else if (host.model.modelSystem)
        host.screen.show(`No system prompt is set; the model's own applies:\n${host.model.modelSystem}`);
      else host.screen.show('No system prompt is set.');
      return;
    }
    if (args === 'clear') {
      host.model.setSystem(undefined);
      host.screen.notice('success', 'System prompt removed.');
      return;
    }
    host.model.setSystem(args);
    host.screen.notice('success', 'System prompt set.');
  },
};
