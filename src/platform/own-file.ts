import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  renameSync,
  type Stats,
  statSync,
} from 'node:fs';
import { errnoCode } from './errno.js';

/** A file ochat keeps for itself (lock, cache, state, history), as read: its bytes, none, or why it is not one. */
export type OwnFileRead =
  | { kind: 'ok'; bytes: Buffer }
  | { kind: 'absent' }
  /** Not a regular file, or larger than any such file grows: never read, to be set aside. */
  | { kind: 'bad'; what: string };

/**
 * Reads a file ochat owns, as the session files are read: opened without blocking (a FIFO in
 * its place opens at once), a regular file only (not a FIFO, a device like /dev/zero, a folder),
 * at most `maxBytes` (a bigger one is not ochat's). Other errors (EACCES…) are thrown.
 */
export function readOwnFile(path: string, maxBytes: number): OwnFileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { kind: 'absent' };
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    const what = notOwnFile(stats, maxBytes);
    if (what) return { kind: 'bad', what };
    // What it held when it was opened: a file another process appends to meanwhile is read to that size.
    const bytes = Buffer.alloc(stats.size);
    let filled = 0;
    while (filled < bytes.length) {
      const read = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return { kind: 'ok', bytes: bytes.subarray(0, filled) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Why what is at `path` is not one of ochat's files (at most `maxBytes`), from its stat alone
 * (no open, so nothing blocks); undefined when it is one, or when there is nothing there.
 */
export function ownFileProblem(path: string, maxBytes: number): string | undefined {
  try {
    return notOwnFile(statSync(path), maxBytes);
  } catch {
    return undefined;
  }
}

/** Why `stats` is not one of ochat's files (at most `maxBytes`), or undefined. */
function notOwnFile(stats: Stats, maxBytes: number): string | undefined {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (!stats.isFile()) return 'not a regular file';
  if (stats.size > maxBytes) return `larger than ${formatLimit(maxBytes)}`;
  return undefined;
}

function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} kB`;
}

/**
 * Moves a bad file of ochat's out of the way, beside it as `<name>.bad-<time>`, so a new one can
 * be made and nothing is deleted; returns where it went (undefined: it could not be moved).
 */
export function setAside(path: string, now = new Date()): string | undefined {
  const keptAs = `${path}.bad-${now.toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(path, keptAs);
    return keptAs;
  } catch {
    return undefined;
  }
}
