import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import {
  MAX_SESSION_LINE_BYTES,
  type ParsedSession,
  parseSessionLines,
  SessionFileError,
  type SessionFileLine,
} from './session-reader.js';

/** How much of a line over the limit is kept (its type, for a listing). */
const LINE_HEAD_BYTES = 256;

/** Bytes read at a time: a session file is never held whole in memory. */
const CHUNK_BYTES = 1024 * 1024;

/** What a path that is not a regular file is, for the message that refuses it. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Opens a session file for reading: only a regular file (a FIFO would block the open and every
 * read, `/dev/zero` never ends), opened without blocking. The caller closes the descriptor.
 */
export function openSessionFile(path: string, name: string): number {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new SessionFileError(`${name}: it is ${kindOf(stats)}, not a regular file.`);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * The lines of an open file, read a chunk at a time; a line over `maxLineBytes` is skipped as it
 * streams past (its text undefined), so no line costs more memory than the limit.
 */
export function* fileLines(fd: number, maxLineBytes = MAX_SESSION_LINE_BYTES): Generator<SessionFileLine> {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let parts: Buffer[] = [];
  let kept = 0;
  let over = false;
  let head = '';
  let lineBytes = 0;
  let position = 0;
  const line = (terminated: boolean): SessionFileLine => ({
    text: over ? undefined : Buffer.concat(parts, kept).toString('utf8'),
    bytes: lineBytes + (terminated ? 1 : 0),
    terminated,
    ...(over && { head }),
  });
  for (;;) {
    const read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
    if (read === 0) break;
    position += read;
    const data = chunk.subarray(0, read);
    let start = 0;
    while (start < read) {
      const newline = data.indexOf(0x0a, start);
      const end = newline === -1 ? read : newline;
      lineBytes += end - start;
      if (!over && kept + (end - start) > maxLineBytes) {
        over = true;
        head = Buffer.concat([...parts, data.subarray(start, end)]).toString('utf8', 0, LINE_HEAD_BYTES);
        parts = [];
        kept = 0;
      }
      if (!over && end > start) {
        parts.push(Buffer.from(data.subarray(start, end)));
        kept += end - start;
      }
      if (newline === -1) break;
      yield line(true);
      parts = [];
      kept = 0;
      over = false;
      head = '';
      lineBytes = 0;
      start = newline + 1;
    }
  }
  if (lineBytes > 0) yield line(false);
}

/** Reads and parses the session file at `path` (see {@link openSessionFile} for what it refuses). */
export function readSessionFile(path: string, name: string): ParsedSession {
  const fd = openSessionFile(path, name);
  try {
    return parseSessionLines(fileLines(fd), name);
  } finally {
    closeSync(fd);
  }
}
