/** What a prompt line starting with `!` (or `\!`) asks for. */
export type ShellInput =
  /** `!command`: run it. */
  | { kind: 'command'; command: string }
  /** `!` alone (or with spaces only): say how shell mode works. */
  | { kind: 'hint' }
  /** `\!…`: a message that starts with `!`, sent without the backslash. */
  | { kind: 'message'; text: string };

/**
 * Reads the shell syntax of a submitted line: `!command` runs a command, `\!` escapes the mark
 * (`!!` is left to the shell, where it means "the last command"); undefined for any other line.
 */
export function parseShellInput(text: string): ShellInput | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('\\!')) return { kind: 'message', text: text.replace('\\!', '!') };
  if (!trimmed.startsWith('!')) return undefined;
  const command = trimmed.slice(1).trim();
  return command ? { kind: 'command', command } : { kind: 'hint' };
}

/** Shown for `!` alone. */
export function shellHint(cwd: string): string {
  return `Type a shell command after !, e.g. !git status: it runs in ${cwd} (a new sh each time, so cd does not carry over), Ctrl+C stops it, and its output goes with your next message. \\! starts a message with !.`;
}
