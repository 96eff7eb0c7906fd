import type { SlashCommand } from '../command.js';

/** `/last-tool`: the full output of the most recent tool call (the conversation shows one line). */
export const lastToolCommand: SlashCommand = {
  name: 'last-tool',
  summary: 'Show the full output of the last tool call',
  usage: '/last-tool',
  run(host) {
    const last = host.tools.lastOutput();
    host.screen.show(
      last ? `Output of ${last.name}:\n${last.output}` : 'No tool has run in this conversation.',
    );
  },
};
