import type { ShellResult } from './run-shell.js';

/** How a shell command ended: what `run_command` keeps in its outcome details and a `!` run records. */
export interface ShellEnd {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** The time limit it ran under (0: none). */
  timeoutMs: number;
  /** Why it could not be started. */
  error?: string;
}

/** The end of `result`, run under `timeoutMs`. */
export function shellEndOf(result: ShellResult, timeoutMs: number): ShellEnd {
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    aborted: result.aborted,
    timeoutMs,
    ...(result.spawnError === undefined ? {} : { error: result.spawnError }),
  };
}

/** Whether the command ran to the end and exited 0. */
export function shellSucceeded(end: ShellEnd): boolean {
  return end.exitCode === 0 && !end.timedOut && !end.aborted;
}

/** How the command ended, in a sentence for the model. */
export function shellEndNote(end: ShellEnd): string {
  if (end.error) return `could not start: ${end.error}`;
  if (end.timedOut) return `timed out after ${formatDuration(end.timeoutMs)}; the process group was killed`;
  if (end.aborted) return 'cancelled by the user; the process group was killed';
  if (end.exitCode === null) return `killed by ${end.signal}`;
  return `exit code ${end.exitCode}`;
}

/** How the command ended, in a few words for a summary line. */
export function shellEndShort(end: ShellEnd): string {
  if (end.error) return `could not start: ${end.error}`;
  if (end.timedOut) return `timed out after ${formatDuration(end.timeoutMs)}`;
  if (end.aborted) return 'cancelled';
  if (end.exitCode === null) return `killed by ${end.signal}`;
  return `exit ${end.exitCode}`;
}

/** `60s`, `1.5s`, `250ms`. */
function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}
