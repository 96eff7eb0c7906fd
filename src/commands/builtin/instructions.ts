import { formatTokens } from '../../conversation/format-tokens.js';
import type { SlashCommand } from '../command.js';

/** `/instructions`: the instruction files (AGENTS.md) every request carries, and what they say. */
export const instructionsCommand: SlashCommand = {
  name: 'instructions',
  summary: 'Show the instruction files (AGENTS.md) sent with every request',
  usage: '/instructions',
  runsWhileBusy: true,
  run(host) {
    const { names, files, problems } = host.model.instructions();
    const notRead = problems.map((problem) => `Not used: ${problem}`);
    if (!names.length) {
      host.screen.show('No instruction files are read: instructions_files is [] in the config.');
      return;
    }
    if (!files.length) {
      host.screen.show(
        [
          `No instruction files found (looked for ${names.join(', ')} in ochat's config directory and from the repository root down to the working directory).`,
          ...notRead,
        ].join('\n'),
      );
      return;
    }
    const total = files.reduce((sum, file) => sum + file.tokens, 0);
    const list = files.map((file) => `  ${file.shown}  ~${formatTokens(file.tokens)} tokens`);
    const texts = files.map((file) => `── ${file.shown} ──\n${file.content.trimEnd()}`);
    host.screen.show(
      [
        `Instruction files in the system message of every request (~${formatTokens(total)} tokens), the most general first:`,
        ...list,
        ...notRead,
        '',
        ...texts.join('\n\n').split('\n'),
      ].join('\n'),
    );
  },
};
