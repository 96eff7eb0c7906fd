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

/**
 * Parses a session file's text. A torn last line (a crash mid-write) is skipped with a notice; a
 * corrupt line elsewhere is skipped, reported by its line number, and makes the session read-only;
 * a newer format version makes it read-only (never overwritten by an ochat that cannot know its lines).
 */
export function parseSession(text: string, name = 'session'): ParsedSession {
  const lines = text.split('\n');
  // After a final newline, split leaves one empty string: not a line.
  const complete = text.endsWith('\n');
  if (complete) lines.pop();
  const notices: string[] = [];
  let readOnly: string | undefined;
  let validBytes = 0;
  const entries: SessionEntry[] = [];
  let header: SessionHeader | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const isLast = i === lines.length - 1;
    const lineBytes = Buffer.byteLength(line) + (isLast && !complete ? 0 : 1);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (isLast && !complete) {
        notices.push(`${name}: the last line was cut short (ochat stopped mid-write); it was skipped.`);
        break;
      }
      if (i === 0) throw new SessionFileError(`${name}: not a session file (line 1 is not JSON).`);
      if (line.trim() === '') {
        validBytes += lineBytes;
        continue;
      }
      notices.push(`${name}: line ${i + 1} is corrupt and was skipped.`);
      readOnly ??= `line ${i + 1} is corrupt`;
      validBytes += lineBytes;
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
      validBytes += lineBytes;
      continue;
    }
    const problem = entryProblem(value);
    if (problem) {
      // A newer format's unknown lines are expected; in our own format they are damage.
      if (header && header.version <= SESSION_FORMAT_VERSION) {
        notices.push(`${name}: line ${i + 1} is corrupt (${problem}) and was skipped.`);
        readOnly ??= `line ${i + 1} is corrupt`;
      }
    } else entries.push(value as SessionEntry);
    validBytes += lineBytes;
  }
  if (!header) throw new SessionFileError(`${name}: empty session file.`);
  if (readOnly && !notices.some((n) => n.includes('read-only')))
    notices.push(`${name}: opened read-only because ${readOnly}; nothing will be written to it.`);
  return { header, entries, notices, readOnly, validBytes };
}
