import { closeSync, fstatSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { errnoCode, fileErrorReason } from '../platform/errno.js';
import { fileLines, openSessionFile } from './session-file.js';
import { entryProblem, headerProblem, type SessionEntry, type SessionHeader } from './session-format.js';
import { SessionFileError } from './session-reader.js';

/** One session as `--list-sessions` and `/sessions` show it. */
export interface SessionSummary {
  id: string;
  name: string | undefined;
  model: string | undefined;
  cwd: string;
  created: string;
  /** Messages in the transcript (replaced replies included). */
  messages: number;
  /** The file's last write. */
  lastActivity: Date;
  /** The first line of the first user message. */
  firstUserLine: string | undefined;
  path: string;
}

/** A `*.jsonl` file of the sessions directory that cannot be opened as a session, and why. */
export interface UnreadableSession {
  id: string;
  path: string;
  /** In words: `it is a directory`, `it is empty (0 bytes)`, `not a session file (…)`. */
  reason: string;
}

/** The sessions directory as listed: its sessions, newest activity first, and the files that are not. */
export interface SessionIndex {
  sessions: SessionSummary[];
  unreadable: UnreadableSession[];
}

/** How the writer starts a message line and a setting line (`JSON.stringify` keeps key order). */
const MESSAGE_LINE = '{"type":"message",';
const SETTING_LINE = '{"type":"setting",';

/** A listing reads no line longer than this whole (a longer one is counted by its head). */
const LISTED_LINE_BYTES = 1024 * 1024;

/** Lists the `*.jsonl` files of `dir`: each one a session or, with the reason, not one. */
export function indexSessions(dir: string): SessionIndex {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { sessions: [], unreadable: [] };
  }
  const sessions: SessionSummary[] = [];
  const unreadable: UnreadableSession[] = [];
  for (const file of names) {
    if (!file.endsWith('.jsonl')) continue;
    const id = file.slice(0, -'.jsonl'.length);
    const path = join(dir, file);
    try {
      sessions.push(summarizeSession(id, path));
    } catch (error) {
      const link = symlinkTarget(path);
      const reason = unreadableReason(error);
      unreadable.push({ id, path, reason: link ? `it is a symbolic link to ${link}; ${reason}` : reason });
    }
  }
  sessions.sort((a, b) => b.lastActivity.getTime() - a.lastActivity.getTime() || b.id.localeCompare(a.id));
  return { sessions, unreadable };
}

function symlinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

function unreadableReason(error: unknown): string {
  if (error instanceof SessionFileError)
    return error.message.replace(/^session \S+: /, '').replace(/\.$/, '');
  if (errnoCode(error) === 'ENOENT') return 'its target does not exist';
  return `it cannot be read: ${fileErrorReason(error)}`;
}

/**
 * One session's listing, from a regular file only, read a chunk at a time. Only the lines a
 * listing needs are parsed (the header, the first user message, name and model settings): every
 * line starts with its type, as the writer wrote it, so the rest is counted by its first bytes.
 */
export function summarizeSession(id: string, path: string): SessionSummary {
  const name = `session ${id}`;
  const fd = openSessionFile(path, name);
  try {
    const stats = fstatSync(fd);
    if (stats.size === 0) throw new SessionFileError(`${name}: it is empty (0 bytes).`);
    let header: SessionHeader | undefined;
    let sessionName: string | undefined;
    let model: string | undefined;
    let messages = 0;
    let firstUserLine: string | undefined;
    for (const line of fileLines(fd, LISTED_LINE_BYTES)) {
      if (!header) {
        header = parseHeader(line.text, name);
        model = header.model;
        continue;
      }
      const text = line.text ?? line.head ?? '';
      if (text.startsWith(MESSAGE_LINE)) {
        messages++;
        if (firstUserLine !== undefined || !text.includes('"role":"user"')) continue;
        const entry = parseEntry(line.text);
        if (entry?.type === 'message' && entry.message.role === 'user')
          firstUserLine = entry.message.content.trim().split('\n')[0];
      } else if (text.startsWith(SETTING_LINE) && /"key":"(name|model)"/.test(text)) {
        const entry = parseEntry(line.text);
        if (entry?.type !== 'setting') continue;
        if (entry.key === 'name')
          sessionName = typeof entry.value === 'string' && entry.value ? entry.value : undefined;
        if (entry.key === 'model' && typeof entry.value === 'string') model = entry.value;
      }
    }
    if (!header) throw new SessionFileError(`${name}: empty session file.`);
    return {
      id,
      name: sessionName,
      model,
      cwd: header.cwd,
      created: header.created,
      messages,
      lastActivity: stats.mtime,
      firstUserLine,
      path,
    };
  } finally {
    closeSync(fd);
  }
}

/** The header line (a BOM before it read past), or why the file is not a session. */
function parseHeader(text: string | undefined, name: string): SessionHeader {
  if (text === undefined) throw new SessionFileError(`${name}: not a session file (line 1 is far too long).`);
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch {
    throw new SessionFileError(`${name}: not a session file (line 1 is not JSON).`);
  }
  const problem = headerProblem(value);
  if (problem) throw new SessionFileError(`${name}: not a session file (${problem}).`);
  return value as SessionHeader;
}

function parseEntry(text: string | undefined): SessionEntry | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return entryProblem(value) ? undefined : (value as SessionEntry);
  } catch {
    return undefined;
  }
}
