import { twoColumnRows } from '../../text/terminal-rows.js';
import type { SlashCommand } from '../command.js';

/** `/help`: one line per command, built from the same list the dispatcher uses. */
export function createHelpCommand(list: () => readonly SlashCommand[]): SlashCommand {
  return {
    name: 'help',
    aliases: ['?'],
    summary: 'List the slash commands and keys',
    usage: '/help',
    runsWhileBusy: true,
    run(host) {
      const commands = list();
      const lines = twoColumnRows(
        commands.map((c) => {
          const aliases = c.aliases?.length ? ` (also ${c.aliases.map((a) => `/${a}`).join(', ')})` : '';
          return [`  ${c.usage}`, `${c.summary}${aliases}`];
        }),
        host.screen.columns,
      );
      // Every row is laid out here, to the screen's columns: each continues under its own text.
      const keys = twoColumnRows(
        [
          [
            'Keys:',
            'Enter send · Alt+Enter or a trailing \\ new line · """ starts and ends a multi-line message',
          ],
          [
            '',
            '↑/↓ history · Tab complete commands and their arguments (models, options, tools), and @paths',
          ],
          [
            '',
            'Ctrl+C cancel reply (twice on an empty prompt: quit) · Ctrl+D quit · Ctrl+T show/hide the thinking of all replies',
          ],
          [
            '',
            'Esc clear the prompt (an empty one: take back the last queued message) · Delete/Backspace delete after/before the cursor · // starts a message with /',
          ],
          [
            '',
            'A question (y/n…) is answered by its key pressed alone after a short pause; other typing goes to the prompt',
          ],
          [
            '',
            'a paste over 10 lines or 2,000 characters shows as one chip, sent in full · Ctrl+O expand it',
          ],
        ],
        host.screen.columns,
        { gap: 1 },
      );
      const more = twoColumnRows(
        [
          [
            'Attach:',
            '@path sends a file with the message (text, or a PNG/JPEG/WebP image for a vision model); Tab after @ completes paths',
          ],
          [
            'Shell:',
            '!command runs a shell command here (Ctrl+C stops it); its output goes with your next message · \\! starts a message with !',
          ],
        ],
        host.screen.columns,
        { gap: 1 },
      );
      host.screen.show(['Commands:', ...lines, '', ...keys, '', ...more].join('\n'));
    },
  };
}
