import type * as ChildProcess from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { nodeBuiltin } from '../platform/node-builtin.js';
import { createOutputCollector } from './output-collector.js';

/** How a shell command ended. */
export interface ShellResult {
  /** Exit code, or null when the process was killed by a signal or never started. */
  exitCode: number | null;
  /** The signal that killed the shell, if any. */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** Why the shell could not be started (e.g. the directory does not exist). */
  spawnError?: string;
  /** stdout and stderr interleaved in arrival order, head and tail kept when long. */
  output: string;
}

/** Options of runShell. */
export interface ShellOptions {
  cwd: string;
  /** Kill the command after this long; 0 or less means no limit. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Output kept in memory, in characters. */
  maxOutputChars: number;
  /** Sees each piece of output (stdout and stderr) as it arrives, e.g. to show it live. */
  onOutput?: (chunk: string) => void;
}

/** After a timeout's SIGTERM, a process group that is still alive this long later gets SIGKILL. */
const KILL_GRACE_MS = 2000;
/** After the user cancels, less: Ctrl+C must free the app within a second, whatever the command traps. */
const CANCEL_GRACE_MS = 500;
/** After the shell exits, how long to wait for background children still holding its pipes. */
const PIPE_LINGER_MS = 300;

/**
 * The process groups of commands still running. Each is detached from the terminal (so a
 * closed terminal's SIGHUP never reaches it): ochat ends them itself when it ends.
 */
const runningGroups = new Set<number>();
let exitHookInstalled = false;

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // The group is already gone.
    return false;
  }
}

/** Whatever way ochat exits (a quit before the cancel's SIGKILL is due, a closed terminal's EIO): no group outlives it. */
function killRunningGroupsAtExit(): void {
  for (const pid of runningGroups) signalGroup(pid, 'SIGKILL');
}

/**
 * Ends every command still running as a cancel does: SIGTERM to its process group, SIGKILL to
 * what is left after `graceMs`. For ochat ending by SIGHUP or SIGTERM (a closed terminal), it
 * blocks: the process exits right after, and no other exit path may run in between.
 */
export function endRunningCommandsNow(graceMs = CANCEL_GRACE_MS): void {
  const groups = [...runningGroups];
  for (const pid of groups) signalGroup(pid, 'SIGTERM');
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + graceMs;
  while (groups.some((pid) => signalGroup(pid, 0)) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 10);
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
}

/**
 * Why the shell could not start in `cwd`. Node blames the shell for a missing working directory
 * (`spawn sh ENOENT`) and throws a bare `spawn ENOTDIR` for a file: the folder is named instead.
 */
function spawnErrorText(error: unknown, cwd: string): string {
  try {
    if (!statSync(cwd).isDirectory()) return `the working directory ${cwd} is not a folder`;
  } catch (statError) {
    const code = (statError as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `the working directory ${cwd} does not exist`;
    if (code === 'ENOTDIR') return `the working directory ${cwd} is not a folder`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs `command` with `sh -c` in its own process group, so a timeout or an abort kills the whole
 * group (the shell and everything it started), not just the shell.
 */
export function runShell(command: string, options: ShellOptions): Promise<ShellResult> {
  const base = { exitCode: null, signal: null, timedOut: false, aborted: false, output: '' };
  if (options.signal?.aborted) return Promise.resolve({ ...base, aborted: true });
  return new Promise((resolve) => {
    let child: ChildProcess.ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = nodeBuiltin<typeof ChildProcess>('node:child_process').spawn('sh', ['-c', command], {
        cwd: options.cwd,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        // No terminal is attached: pagers would wait for a keypress that never comes.
        env: { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat' },
      });
    } catch (error) {
      // Some failures (a working directory that is a file) are thrown, not emitted.
      resolve({ ...base, spawnError: spawnErrorText(error, options.cwd) });
      return;
    }
    const group = child.pid;
    if (group !== undefined) {
      if (!exitHookInstalled) process.once('exit', killRunningGroupsAtExit);
      exitHookInstalled = true;
      runningGroups.add(group);
    }
    const collector = createOutputCollector(options.maxOutputChars);
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        collector.push(chunk);
        options.onOutput?.(chunk);
      });
    }
    let timedOut = false;
    let aborted = false;
    let finished = false;
    const timers: NodeJS.Timeout[] = [];

    const killGroup = (signal: NodeJS.Signals) => {
      if (group !== undefined) signalGroup(group, signal);
    };
    const stop = (reason: 'timeout' | 'abort') => {
      if (timedOut || aborted || finished) return;
      if (reason === 'timeout') timedOut = true;
      else aborted = true;
      killGroup('SIGTERM');
      // Not cleared on finish: a child that ignores SIGTERM must still die after the shell is gone.
      setTimeout(
        () => {
          killGroup('SIGKILL');
          if (group !== undefined) runningGroups.delete(group);
        },
        reason === 'abort' ? CANCEL_GRACE_MS : KILL_GRACE_MS,
      ).unref();
    };
    const onAbort = () => stop('abort');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.timeoutMs > 0) timers.push(setTimeout(() => stop('timeout'), options.timeoutMs));

    const finish = (exitCode: number | null, signal: string | null, spawnError?: string) => {
      if (finished) return;
      finished = true;
      // A stopped group stays listed until its SIGKILL: a child that ignores SIGTERM may outlive the shell.
      if (group !== undefined && !timedOut && !aborted) runningGroups.delete(group);
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode, signal, timedOut, aborted, spawnError, output: collector.text() });
    };
    child.on('error', (error) => finish(null, null, spawnErrorText(error, options.cwd)));
    child.on('close', (code, signal) => finish(code, signal));
    child.on('exit', (code, signal) => {
      // Background children may keep the pipes open forever; don't wait for them beyond a moment.
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          finish(code, signal);
        }, PIPE_LINGER_MS),
      );
    });
  });
}
