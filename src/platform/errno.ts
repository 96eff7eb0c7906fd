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

/** Why a file operation failed, in words a user reads (`the disk is full`), not an errno code. */
export function fileErrorReason(error: unknown): string {
  switch (errnoCode(error)) {
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is used up';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EIO':
      return 'the disk reported an input/output error';
    case 'EFBIG':
      return 'the file is larger than the file system allows';
    case 'ENOENT':
      return 'no such file or folder';
    case 'ENOTDIR':
      return 'a part of its path is not a folder';
    case 'EISDIR':
      return 'it is a folder';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many files are open';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
