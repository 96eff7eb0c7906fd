import { closeSync, existsSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { errnoCode } from './errno.js';
import { readOwnFile, setAside } from './own-file.js';

/** Someone else holds the lock: which process. */
export interface LockHolder {
  pid: number;
}

/** Whether process `pid` is alive (EPERM: alive, owned by someone else). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}

/**
 * When process `pid` started, in clock ticks since boot (Linux `/proc/<pid>/stat`, field 22);
 * undefined where there is no /proc or no such process. A pid and its start time name one process:
 * a pid alone may have been reused by another since the lock was written.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] || undefined;
  } catch {
    return undefined;
  }
}

/** A lock file is one short line; anything larger was not written by ochat. */
const MAX_LOCK_BYTES = 256;

/**
 * A lock file's content: `<pid> <start time>` (the start time where it is known); `bad` when what
 * is there is no lock file at all (a FIFO, a device, a folder: read without blocking, never whole).
 */
function readHolder(path: string): { pid: number; start?: string } | { bad: string } | undefined {
  try {
    const read = readOwnFile(path, MAX_LOCK_BYTES);
    if (read.kind === 'bad') return { bad: read.what };
    if (read.kind === 'absent') return undefined;
    const [pidText, start] = read.bytes.toString('utf8').trim().split(/\s+/);
    const pid = Number.parseInt(pidText, 10);
    if (!Number.isInteger(pid)) return undefined;
    return start ? { pid, start } : { pid };
  } catch {
    return undefined;
  }
}

function readPid(path: string): number | undefined {
  const holder = readHolder(path);
  return holder && 'pid' in holder ? holder.pid : undefined;
}

/**
 * Creates `path` holding our pid (and our start time, when `pid` is this process), only if it does
 * not exist (O_EXCL: no read-modify-write race).
 */
function createExclusive(path: string, pid: number): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    const start = pid === process.pid ? processStartTime(pid) : undefined;
    writeSync(fd, start ? `${pid} ${start}\n` : `${pid}\n`);
  } catch (error) {
    // A full disk: an empty lock left behind would outlive us, one per attempt.
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
    throw error;
  }
  closeSync(fd);
  return true;
}

/**
 * Locks this process holds: released as it exits however it exits (SIGHUP from a closed terminal,
 * SIGTERM, a closed pipe), so none is left behind to be taken over by the next start.
 */
const heldLocks = new Set<LockFile>();
let exitHookInstalled = false;
function holdUntilExit(lock: LockFile): void {
  heldLocks.add(lock);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const held of heldLocks) held.release();
  });
}

/** A takeover guard older than this was left by a process that died while taking over. */
const STALE_GUARD_MS = 10_000;

/**
 * ochat's one lock: an O_EXCL lock file holding the owner's pid (and start time). A lock whose
 * process is dead is taken over; taking over is itself guarded by a second O_EXCL file, so two
 * processes cannot both remove a dead lock and each believe they created the new one. Sessions
 * (one ochat per session file) and the input history's trim (one trimmer at a time) use it.
 */
export class LockFile {
  private held = false;

  constructor(
    readonly path: string,
    private readonly pid = process.pid,
    private readonly alive: (pid: number) => boolean = processAlive,
  ) {}

  /**
   * Takes the lock; returns the live holder when another process has it. What stands in the
   * lock's place and is no lock file (a FIFO, a device, a folder) is set aside (`setAside`: what it
   * was, and where it went), so it neither hangs ochat nor passes for a holder.
   */
  acquire():
    | { ok: true; setAside?: { what: string; keptAs: string } }
    | { ok: false; holder: LockHolder; unusable?: string } {
    let setAsideNow: { what: string; keptAs: string } | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (createExclusive(this.path, this.pid)) {
        this.#hold();
        return setAsideNow ? { ok: true, setAside: setAsideNow } : { ok: true };
      }
      const read = readHolder(this.path);
      if (read && 'bad' in read) {
        const keptAs = setAside(this.path);
        // No lock file, and it cannot be moved away (a read-only folder): held by nobody.
        if (!keptAs) return { ok: false, holder: { pid: 0 }, unusable: read.bad };
        setAsideNow = { what: read.bad, keptAs };
        continue;
      }
      const holder = read;
      const pid = holder?.pid;
      if (pid === this.pid) {
        this.#hold();
        return { ok: true };
      }
      // A half-written lock (pid not there yet) belongs to a live process that is writing it.
      if (holder && this.holderAlive(holder)) return { ok: false, holder: { pid: holder.pid } };
      if (pid === undefined) {
        if (this.ageMs(this.path) < 1000) return { ok: false, holder: { pid: 0 } };
      }
      this.takeOver(pid);
    }
    const pid = readPid(this.path) ?? 0;
    return { ok: false, holder: { pid } };
  }

  #hold(): void {
    this.held = true;
    // Only a lock of this process is released at its exit (tests hold locks for other pids).
    if (this.pid === process.pid) holdUntilExit(this);
  }

  /** The lock's process is alive: its pid is, and (where known) it is the same process, not a reuse. */
  private holderAlive(holder: { pid: number; start?: string }): boolean {
    if (!this.alive(holder.pid)) return false;
    if (holder.start === undefined) return true;
    const now = processStartTime(holder.pid);
    return now === undefined || now === holder.start;
  }

  /** Removes a dead holder's lock, under the takeover guard. */
  private takeOver(deadPid: number | undefined): void {
    const guard = `${this.path}.takeover`;
    if (!createExclusive(guard, this.pid)) {
      if (this.ageMs(guard) > STALE_GUARD_MS) this.unlinkQuietly(guard);
      return;
    }
    try {
      // Re-check under the guard: another process may have taken it over meanwhile.
      if (readPid(this.path) === deadPid) this.unlinkQuietly(this.path);
    } finally {
      this.unlinkQuietly(guard);
    }
  }

  private ageMs(path: string): number {
    try {
      return Date.now() - statSync(path).mtimeMs;
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  }

  private unlinkQuietly(path: string): void {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  }

  /**
   * Waits, without blocking the event loop, while a live process holds the lock, at most
   * `timeoutMs`; resolves whether it was freed (or never held).
   */
  async waitWhileHeld(timeoutMs: number, pollMs = 5): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const holder = readHolder(this.path);
      if (holder && 'bad' in holder) return true;
      if (holder === undefined ? !existsSync(this.path) : !this.holderAlive(holder)) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** Releases the lock if we hold it (and it is still ours). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    heldLocks.delete(this);
    if (readPid(this.path) === this.pid) this.unlinkQuietly(this.path);
  }
}
