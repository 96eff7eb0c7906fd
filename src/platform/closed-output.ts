/**
 * When the reader of ochat's output goes away — `ochat -p … | head -1` closes the pipe (EPIPE),
 * a closed terminal window fails every read and write (EIO) — ochat ends at once and quietly:
 * there is nobody left to tell, and an unhandled stream error would print a stack trace.
 */
import { closeSync } from 'node:fs';
import { onStdioStream } from './stdio-streams.js';

/** Exit status for a closed pipe, as for a process ended by SIGPIPE (128 + 13). */
export const CLOSED_PIPE_EXIT = 141;
/** Exit status for a closed terminal, as for a process ended by SIGHUP (128 + 1). */
export const CLOSED_TERMINAL_EXIT = 129;

/**
 * Exits when the terminal may be gone (EIO, SIGHUP). At exit Node restores the terminal settings
 * of stdio and aborts with an assertion when it cannot (node::ResetStdio); it skips descriptors
 * that are closed, so close them first. Restore any terminal mode before calling this.
 */
export function exitWithoutTerminal(code: number): never {
  for (const fd of [0, 1, 2]) {
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
  }
  process.exit(code);
}

/** Whether `error` says the other end of a stream is gone. */
function isClosedOutputError(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EPIPE' || error.code === 'EIO';
}

/**
 * Makes stdin, stdout and stderr end the process quietly when their other end is gone; other
 * stream errors are rethrown (a bug, reported by the last-resort handler). Each as it is created:
 * one not used yet has no errors.
 */
export function exitQuietlyWhenOutputCloses(): void {
  let exiting = false;
  const onError = (error: NodeJS.ErrnoException) => {
    // Later writes (Ink's goodbye frame, the cursor reset) fail too: ignore them.
    if (exiting) return;
    if (!isClosedOutputError(error)) throw error;
    exiting = true;
    if (error.code === 'EPIPE') process.exit(CLOSED_PIPE_EXIT);
    exitWithoutTerminal(CLOSED_TERMINAL_EXIT);
  };
  for (const name of ['stdin', 'stdout', 'stderr'] as const)
    onStdioStream(name, (stream) => stream.on('error', onError));
}
