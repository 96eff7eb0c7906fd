import { showControlCharacters } from '../../text/sanitize.js';
import { oneLine } from '../../text/shorten.js';
import { commandApprovalPrefix, commandHasPrefix, describeCommandPrefix } from '../command-prefix.js';
import { failureLine } from '../failure-line.js';
import { runShell } from '../run-shell.js';
import { type ShellEnd, shellEndNote, shellEndOf, shellEndShort, shellSucceeded } from '../shell-end.js';
import type { Tool } from '../tool.js';

/** Arguments of `run_command`. */
export type RunCommandArgs = { command: string };

/** Output kept from one command, in characters (head and tail); a `!` run keeps as much. */
export const MAX_COMMAND_OUTPUT_CHARS = 100_000;

/** Runs a shell command in the working directory, with the configured timeout. */
export const runCommandTool: Tool<RunCommandArgs> = {
  name: 'run_command',
  description:
    'Run a shell command (sh -c) in the working directory and return its exit code and combined stdout/stderr. Not interactive: stdin is empty.',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string', description: 'The command line to run' } },
    required: ['command'],
  },
  keyArgument: (args) => args.command,
  approvalScope(args) {
    const prefix = commandApprovalPrefix(args.command);
    if (!prefix) return null;
    return {
      scope: describeCommandPrefix(prefix),
      covers: (later) => commandHasPrefix(later.command, prefix),
    };
  },
  async run(args, ctx) {
    const result = await runShell(args.command, {
      cwd: ctx.cwd,
      timeoutMs: ctx.commandTimeoutMs,
      signal: ctx.signal,
      maxOutputChars: MAX_COMMAND_OUTPUT_CHARS,
    });
    const end = shellEndOf(result, ctx.commandTimeoutMs);
    const output = `${result.output || '(no output)'}\n[${shellEndNote(end)}]`;
    return { ok: shellSucceeded(end), output, details: { ...end } };
  },
  summaryLine(args, outcome) {
    // The form the question showed: nothing of the command hidden (a \r, a zero-width character).
    const command = oneLine(showControlCharacters(args.command), 160);
    const details = outcome.details ?? {};
    if (!('exitCode' in details) || typeof details.error === 'string') return failureLine(command, outcome);
    return `${outcome.ok ? '✅' : '❌'} ${command} (${shellEndShort(details as unknown as ShellEnd)})`;
  },
};
