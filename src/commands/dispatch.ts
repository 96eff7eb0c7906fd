import { describeError } from '../text/describe-error.js';
import { suggest } from '../text/suggest.js';
import { CommandUsageError, type SlashCommand } from './command.js';
import type { CommandHost } from './command-host.js';

/** Splits `/name rest of line` into the command name and its argument text. */
export function parseSlashCommand(line: string): { name: string; args: string } | undefined {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(line.trim());
  if (!match) return undefined;
  return { name: match[1].toLowerCase(), args: match[2].trim() };
}

/** Finds a command by name or alias. */
export function findCommand(commands: readonly SlashCommand[], name: string): SlashCommand | undefined {
  return commands.find((c) => c.name === name || c.aliases?.includes(name));
}

/**
 * Runs one slash-command line. Never throws: an unknown command or a bad argument becomes a
 * one-line error (with the usage, or a suggestion), so a typo can never end the chat. False when
 * the line ended in such an error.
 */
export async function dispatchCommand(
  commands: readonly SlashCommand[],
  host: CommandHost,
  line: string,
): Promise<boolean> {
  const parsed = parseSlashCommand(line);
  if (!parsed || parsed.name === '') {
    host.screen.notice('error', 'Type a command after the slash. /help lists them.');
    return false;
  }
  const command = findCommand(commands, parsed.name);
  if (!command) {
    const names = commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    const near = suggest(parsed.name, names);
    host.screen.notice(
      'error',
      `Unknown command /${parsed.name}.${near ? ` Did you mean /${near}?` : ''} /help lists the commands.`,
    );
    return false;
  }
  try {
    await command.run(host, parsed.args);
    return true;
  } catch (error) {
    const message = describeError(error);
    // A message that is not a sentence (e.g. from the option parser) still reads as one before "Usage:".
    const sentence = /[.!?)]$/.test(message) ? message : `${message}.`;
    if (error instanceof CommandUsageError)
      host.screen.notice('error', `${sentence} Usage: ${command.usage}`);
    else host.screen.notice('error', `/${command.name} failed: ${message}`);
    return false;
  }
}
