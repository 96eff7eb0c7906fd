/** The `code` of a failed system call (`ENOENT`, `ENOSPC`, …), or undefined for any other error. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const { code } = error;
  return typeof code === 'string' ? code : undefined;
}

/** A write the file system took only part of: a full disk that said so by a short count. */
export class ShortWriteError extends Error {
  override readonly name = 'ShortWriteError';
  readonly code = 'ENOSPC';
  constructor(written: number, wanted: number) {
    super(`only ${written} of ${wanted} bytes were written`);
  }
}

/** What each errno code means, in words a user reads. */
const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EIO: 'the disk reported an input/output error',
  EFBIG: 'the file is larger than the file system allows',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of its path is not a folder',
  EISDIR: 'it is a folder',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  ENXIO:
    'it is no file that can be opened: a socket, a named pipe nobody reads, or a device that is not there',
  ENODEV: 'no such device',
  EEXIST: 'it already exists',
  ENOTEMPTY: 'the folder is not empty',
  ELOOP: 'too many symbolic links in its path',
  ENAMETOOLONG: 'its name is too long',
  EBUSY: 'it is in use by the system',
  ETXTBSY: 'it is a program that is running',
  EXDEV: 'it is on another file system',
  EAGAIN: 'it would have to wait (nothing to read or no room to write yet)',
  ENOTSUP: 'the file system does not support this',
  EOPNOTSUPP: 'the file system does not support this',
  ESPIPE: 'it is a pipe, not a file one can seek in',
};

/** Why a file operation failed, in words a user reads (`the disk is full`), not an errno code. */
export function fileErrorReason(error: unknown): string {
  const code = errnoCode(error);
  if (code !== undefined && code in REASONS) return REASONS[code];
  return error instanceof Error ? error.message : String(error);
}

/**
 * A failed system call in words, with the file it was about: `the file system is read-only
 * (/home/me/.local/share/ochat/sessions/x.lock)` for Node's `EROFS: read-only file system, open
 * '…'`; undefined when `error` is no system call's error with a known code.
 */
export function describeErrno(error: unknown): string | undefined {
  const code = errnoCode(error);
  if (code === undefined || !(code in REASONS)) return undefined;
  const { path, dest } = error as { path?: unknown; dest?: unknown };
  const where =
    typeof path === 'string' ? (typeof dest === 'string' ? `${path} → ${dest}` : path) : undefined;
  return where ? `${REASONS[code]} (${where})` : REASONS[code];
}
