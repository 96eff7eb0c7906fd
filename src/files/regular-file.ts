import { constants, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { fsPromises } from '../platform/node-builtin.js';

/** A file to read: its path, or how to open it (given the flags), e.g. by the sandbox's walk. */
export type FileSource = string | ((flags: number) => Promise<FileHandle>);

const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Opens a source non-blocking; a path is refused from its stat first (no open of a device at all). */
async function openSource(
  file: FileSource,
  maxBytes: number,
): Promise<{ refusal: RegularFileRead } | { handle: FileHandle }> {
  if (typeof file !== 'string') return { handle: await file(READ_FLAGS) };
  const refusal = checkRegular(await fsPromises().stat(file), maxBytes);
  if (refusal) return { refusal };
  return { handle: await fsPromises().open(file, READ_FLAGS) };
}

/** A regular file's bytes, or why it was not read. */
export type RegularFileRead =
  | { kind: 'ok'; content: Buffer }
  | { kind: 'not-regular'; what: string }
  | { kind: 'too-large'; size: number };

/**
 * Reads a file only if it is a regular file of at most `maxBytes`. A FIFO, socket or device would
 * block a read forever (or never end, like /dev/zero), so it is refused from its stat before any
 * open; the open itself is non-blocking and the open file is checked again (it may have been
 * swapped in between). Other errors (ENOENT, EACCES…) are thrown as fs throws them.
 */
export async function readRegularFile(file: FileSource, maxBytes: number): Promise<RegularFileRead> {
  const opened = await openSource(file, maxBytes);
  if ('refusal' in opened) return opened.refusal;
  const { handle } = opened;
  try {
    const again = checkRegular(await handle.stat(), maxBytes);
    if (again) return again;
    return { kind: 'ok', content: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

/** The head of a regular file, or why it was not read. */
export type RegularFileHead =
  | { kind: 'ok'; content: Buffer; size: number }
  | { kind: 'not-regular'; what: string };

/**
 * Reads at most the first `maxBytes` of a regular file, and tells its whole size: for content
 * that is used capped rather than refused when large. Refuses and throws as `readRegularFile`.
 */
export async function readRegularFileHead(file: FileSource, maxBytes: number): Promise<RegularFileHead> {
  const source = await openSource(file, Number.POSITIVE_INFINITY);
  if ('refusal' in source) return source.refusal as RegularFileHead;
  const { handle } = source;
  try {
    const opened = await handle.stat();
    const again = checkRegular(opened, Number.POSITIVE_INFINITY);
    if (again?.kind === 'not-regular') return again;
    const buffer = Buffer.alloc(Math.min(opened.size, maxBytes));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { kind: 'ok', content: buffer.subarray(0, filled), size: opened.size };
  } finally {
    await handle.close();
  }
}

/** Why a path that exists must not be opened as a file (for writing too), or undefined if it may. */
export function nonRegularKind(stat: Stats): string | undefined {
  if (stat.isFile()) return undefined;
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function checkRegular(stat: Stats, maxBytes: number): RegularFileRead | undefined {
  const what = nonRegularKind(stat);
  if (what) return { kind: 'not-regular', what };
  if (stat.size > maxBytes) return { kind: 'too-large', size: stat.size };
  return undefined;
}
