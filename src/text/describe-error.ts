import { describeErrno } from '../platform/errno.js';

/** The text to show for a thrown value: a failed system call in words (`the disk is full (…)`), never its errno text. */
export function describeError(error: unknown): string {
  const errno = describeErrno(error);
  if (errno !== undefined) return errno;
  if (error instanceof Error) return error.message;
  return String(error);
}
