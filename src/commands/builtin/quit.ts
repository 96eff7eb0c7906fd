import type { SlashCommand } from '../command.js';

/** `/quit`: leaves ochat. */
export const quitCommand: SlashCommand = {
  name: 'quit',
  aliases: ['exit', 'bye', 'q'],
  summary: 'Quit ochat',
  usage: '/quit',
  runsWhileBusy: true,
  run(host) {
    host.screen.exit();
  },
};
