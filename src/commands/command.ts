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
}

/** A bad argument: the dispatcher shows the message followed by the command's usage. */
export class CommandUsageError extends Error {
  override readonly name = 'CommandUsageError';
}
