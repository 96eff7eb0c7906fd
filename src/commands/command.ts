import type { CommandHost } from './command-host.js';

/** A slash command: `/name args`. One object per command, listed by `/help` and completed on Tab. */
export interface SlashCommand {
  /** The name typed after the slash, e.g. `compact`. */
  name: string;
  /** Other names that run the same command, e.g. `exit` and `bye` for `quit`. */
  aliases?: string[];
  /** One line of help, shown by `/help` and next to the completion list. */
  summary: string;
  /** How to call it, e.g. `/think [on|off|low|medium|high]`; shown with argument errors. */
  usage: string;
  /**
   * Needs no server and touches nothing a running turn uses: runs at once when typed, even while a
   * reply streams, instead of waiting behind it in the work queue.
   */
  runsWhileBusy?: boolean;
  /** Runs the command; a thrown `CommandUsageError` is shown as a one-line error with the usage. */
  run(host: CommandHost, args: string): Promise<void> | void;
  /**
   * Tab completion of the arguments: candidates for the last word of `args` (all the text typed
   * after the name). Synchronous, on what `context` already knows; the editor filters by prefix.
   */
  completion?(context: CompletionContext, args: string): readonly CompletionEntry[];
}

/** One candidate of argument completion. */
export interface CompletionEntry {
  /** The word inserted, e.g. `llama3.2:latest`. */
  value: string;
  /** One line shown next to it in the list. */
  summary?: string;
  /** Other names of a command, shown after its summary. */
  aliases?: readonly string[];
}

/** What argument completion may read: known right away, never fetched while the user types. */
export interface CompletionContext {
  /** The installed models, as the server last listed them (empty until it answered). */
  readonly models: readonly string[];
  /** Every tool, with its description. */
  readonly tools: readonly { name: string; description: string }[];
  /** The "always" answers given this session, oldest first. */
  readonly approvals: readonly { tool: string; scope: string }[];
  /** The MCP servers' names (for `/mcp restart`). */
  readonly mcpServers?: readonly string[];
}

/** The words typed before the last one, e.g. `['on']` for `on rea`. */
export function wordsBefore(args: string): string[] {
  const words = args.split(/\s+/).filter(Boolean);
  return /\s$/.test(args) || args === '' ? words : words.slice(0, -1);
}

/** A bad argument: the dispatcher shows the message followed by the command's usage. */
export class CommandUsageError extends Error {
  override readonly name = 'CommandUsageError';
}
