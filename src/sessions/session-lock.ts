import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';

/** Someone else holds the session: which process. */
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
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Creates `path` holding our pid, only if it does not exist (O_EXCL: no read-modify-write race). */
function createExclusive(path: string, pid: number): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** A takeover guard older than this was left by a process that died while taking over. */
const STALE_GUARD_MS = 10_000;

/**
 * An O_EXCL lock file holding the owner's pid. A lock whose process is dead is taken over; taking
 * over is itself guarded by a second O_EXCL file, so two processes cannot both remove a dead lock
 * and each believe they created the new one.
 */
export class SessionLock {
  private held = false;

  constructor(
    readonly path: string,
    private readonly pid = process.pid,
    private readonly alive: (pid: number) => boolean = processAlive,
  ) {}

  /** Takes the lock; returns the live holder when another process has it. */
  acquire(): { ok: true } | { ok: false; holder: LockHolder } {
    for (let attempt = 0; attempt < 5; attempt++) {
      if (createExclusive(this.path, this.pid)) {
        this.held = true;
        return { ok: true };
      }
      const pid = readPid(this.path);
      if (pid === this.pid) {
        this.held = true;
        return { ok: true };
      }
      // A half-written lock (pid not there yet) belongs to a live process that is writing it.
      if (pid !== undefined && this.alive(pid)) return { ok: false, holder: { pid } };
      if (pid === undefined) {
        if (this.ageMs(this.path) < 1000) return { ok: false, holder: { pid: 0 } };
      }
      this.takeOver(pid);
    }
    const pid = readPid(this.path) ?? 0;
    return { ok: false, holder: { pid } };
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

  /** Releases the lock if we hold it (and it is still ours). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    if (readPid(this.path) === this.pid) this.unlinkQuietly(this.path);
  }
}
