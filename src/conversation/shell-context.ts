/** What a `!command` run leaves for the model. */
export interface ShellContextInput {
  command: string;
  cwd: string;
  /** How it ended, as a sentence: `exit code 0`, `cancelled by the user; …`. */
  endNote: string;
  /** What it printed (stdout and stderr), already sanitized and capped. */
  output: string;
}

/**
 * The text of the user message a `!command` run becomes: what ran, where, how it ended and what
 * it printed, as a console transcript the model reads with the user's next message. The fence is
 * longer than any run of backticks in the output, so the output cannot close it early.
 */
export function shellContextText({ command, cwd, endNote, output }: ShellContextInput): string {
  const longestTicks = Math.max(0, ...[...`${command}\n${output}`.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longestTicks + 1));
  const said = output ? 'this is what it printed' : 'it printed nothing';
  const body = output ? `$ ${command}\n${output}` : `$ ${command}`;
  return `I ran a shell command in ${cwd} (${endNote}); ${said}:\n${fence}console\n${body}\n${fence}`;
}
