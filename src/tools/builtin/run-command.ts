import { oneLine } from '../../text/shorten.js';
import { commandApprovalPrefix, commandHasPrefix, describeCommandPrefix } from '../command-prefix.js';
import { failureLine } from '../failure-line.js';
import { runShell } from '../run-shell.js';
import type { Tool } from '../tool.js';

/** Arguments of `run_command`. */
export type RunCommandArgs = { command: string };

/** Output kept from one command, in characters (head and tail). */
const MAX_COMMAND_OUTPUT_CHARS = 100_000;

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
    const details = {
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      aborted: result.aborted,
      timeoutMs: ctx.commandTimeoutMs,
      ...(result.spawnError === undefined ? {} : { error: result.spawnError }),
    };
    const ok = result.exitCode === 0 && !result.timedOut && !result.aborted;
    const output = `${result.output || '(no output)'}\n[${endNote(details)}]`;
    return { ok, output, details };
  },
  summaryLine(args, outcome) {
    const command = oneLine(args.command, 80);
    const details = outcome.details ?? {};
    if (!('exitCode' in details) || typeof details.error === 'string') return failureLine(command, outcome);
    return `${outcome.ok ? '✅' : '❌'} ${command} (${shortEnd(details)})`;
  },
};

/** How the command ended, for the model. */
function endNote(details: Record<string, unknown>): string {
  if (details.error) return `could not start: ${details.error}`;
  if (details.timedOut)
    return `timed out after ${formatDuration(details.timeoutMs as number)}; the process group was killed`;
  if (details.aborted) return 'cancelled by the user; the process group was killed';
  if (details.exitCode === null) return `killed by ${details.signal}`;
  return `exit code ${details.exitCode}`;
}

/** How the command ended, for the summary line. */
function shortEnd(details: Record<string, unknown>): string {
  if (details.timedOut) return `timed out after ${formatDuration(details.timeoutMs as number)}`;
  if (details.aborted) return 'cancelled';
  if (details.exitCode === null) return `killed by ${details.signal}`;
  return `exit ${details.exitCode}`;
}

/** `60s`, `1.5s`, `250ms`. */
function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}
