import {
  entryProblem,
  headerProblem,
  SESSION_FORMAT_VERSION,
  type SessionEntry,
  type SessionHeader,
} from './session-format.js';

/** A session file as read: its header, its valid entries, and what was wrong with it. */
export interface ParsedSession {
  header: SessionHeader;
  entries: SessionEntry[];
  /** Things the user should be told (a torn last line skipped, corrupt lines, a newer format). */
  notices: string[];
  /** Why it must not be appended to (a corrupt line, a newer format), else undefined. */
  readOnly: string | undefined;
  /**
   * Byte length of the complete lines: a torn last line ends after it, and the writer cuts it off
   * before appending (else the next line would be glued to the fragment).
   */
  validBytes: number;
}

/** A file that is not a session at all (no valid header): nothing can be shown from it. */
export class SessionFileError extends Error {
  override readonly name = 'SessionFileError';
}

/** One line of a session file as read: its text, or undefined when it is over the size limit. */
export interface SessionFileLine {
  /** The line decoded as UTF-8 (invalid bytes become U+FFFD), without its newline. */
  text: string | undefined;
  /** Its length in the file, in bytes, newline included: every offset into the file is in bytes. */
  bytes: number;
  /** It ends with a newline (only the last line of a file may not). */
  terminated: boolean;
  /** For a line over the limit: its first bytes (which say its type). */
  head?: string;
}

/** The longest line read (a few MB reply is a long line; /dev/zero or a 2 GB line is not one). */
export const MAX_SESSION_LINE_BYTES = 64 * 1024 * 1024;

/** The lines of a whole file in memory (tests, exports); a file on disk is read by session-file.ts. */
export function* bufferLines(
  data: Buffer,
  maxLineBytes = MAX_SESSION_LINE_BYTES,
): Generator<SessionFileLine> {
  let start = 0;
  while (start < data.length) {
    const newline = data.indexOf(0x0a, start);
    const end = newline === -1 ? data.length : newline;
    const terminated = newline !== -1;
    const bytes = end - start + (terminated ? 1 : 0);
    yield {
      text: end - start > maxLineBytes ? undefined : data.toString('utf8', start, end),
      bytes,
      terminated,
    };
    start += bytes;
  }
}

/**
 * Parses a session file's text. A torn last line (a crash mid-write) is skipped with a notice; a
 * corrupt line elsewhere is skipped, reported by its line number, and makes the session read-only;
 * a newer format version makes it read-only (never overwritten by an ochat that cannot know its lines).
 */
export function parseSession(data: string | Buffer, name = 'session'): ParsedSession {
  return parseSessionLines(bufferLines(typeof data === 'string' ? Buffer.from(data) : data), name);
}

/** {@link parseSession} over lines read one by one (a file is never held whole in memory). */
export function parseSessionLines(lines: Iterable<SessionFileLine>, name = 'session'): ParsedSession {
  const notices: string[] = [];
  let readOnly: string | undefined;
  let validBytes = 0;
  const entries: SessionEntry[] = [];
  let header: SessionHeader | undefined;
  let i = -1;
  for (const line of lines) {
    i++;
    // A BOM (an editor's) before the header is not part of it; its bytes stay counted.
    let text = line.text;
    if (i === 0 && text?.startsWith('\uFEFF')) text = text.slice(1);
    if (text === undefined) {
      if (i === 0)
        throw new SessionFileError(
          `${name}: not a session file (line 1 is longer than ${MAX_SESSION_LINE_BYTES / 1024 / 1024} MB).`,
        );
      if (!line.terminated) {
        notices.push(`${name}: the last line was cut short (ochat stopped mid-write); it was skipped.`);
        break;
      }
      notices.push(
        `${name}: line ${i + 1} is longer than ${MAX_SESSION_LINE_BYTES / 1024 / 1024} MB and was skipped.`,
      );
      readOnly ??= `line ${i + 1} is too long`;
      validBytes += line.bytes;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (!line.terminated) {
        // Torn: the writer overwrites it (never appends after it, which would glue two lines).
        if (i === 0)
          throw new SessionFileError(
            `${name}: its first line was cut short (ochat stopped while creating it).`,
          );
        notices.push(`${name}: the last line was cut short (ochat stopped mid-write); it was skipped.`);
        break;
      }
      if (i === 0) throw new SessionFileError(`${name}: not a session file (line 1 is not JSON).`);
      if (text.trim() === '') {
        validBytes += line.bytes;
        continue;
      }
      notices.push(`${name}: line ${i + 1} is corrupt and was skipped.`);
      readOnly ??= `line ${i + 1} is corrupt`;
      validBytes += line.bytes;
      continue;
    }
    if (i === 0) {
      const problem = headerProblem(value);
      if (problem) throw new SessionFileError(`${name}: not a session file (${problem}).`);
      header = value as SessionHeader;
      if (header.version > SESSION_FORMAT_VERSION) {
        readOnly = `it was written by a newer ochat (format ${header.version}; this one reads ${SESSION_FORMAT_VERSION})`;
        notices.push(`${name}: ${readOnly}; opened read-only, lines it does not know are skipped.`);
      }
      validBytes += line.bytes;
      continue;
    }
    const problem = entryProblem(value);
    if (problem) {
      if (!line.terminated) {
        notices.push(`${name}: the last line was cut short (ochat stopped mid-write); it was skipped.`);
        break;
      }
      // A newer format's unknown lines are expected; in our own format they are damage.
      if (header && header.version <= SESSION_FORMAT_VERSION) {
        notices.push(`${name}: line ${i + 1} is corrupt (${problem}) and was skipped.`);
        readOnly ??= `line ${i + 1} is corrupt`;
      }
    } else entries.push(value as SessionEntry);
    // A whole last line that lost only its newline is kept: the writer adds the newline first.
    validBytes += line.bytes;
  }
  if (!header) throw new SessionFileError(`${name}: empty session file.`);
  if (readOnly && !notices.some((n) => n.includes('read-only')))
    notices.push(`${name}: opened read-only because ${readOnly}; nothing will be written to it.`);
  return { header, entries, notices, readOnly, validBytes };
}
