import type * as Crypto from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { errnoCode, fileErrorReason } from '../platform/errno.js';
import { LockFile, processAlive } from '../platform/lock-file.js';
import { makeDirectory } from '../platform/make-directory.js';
import { nodeBuiltin } from '../platform/node-builtin.js';
import { dataDir } from '../platform/xdg-paths.js';
import { readSessionFile } from './session-file.js';
import { SESSION_FORMAT_VERSION, type SessionEntry, type SessionHeader } from './session-format.js';
import { indexSessions, type SessionIndex, type SessionSummary } from './session-index.js';
import { type ParsedSession, SessionFileError } from './session-reader.js';
import { SessionSaveError, SessionWriter, type WriterListener } from './session-writer.js';

/** Where session files live: `$XDG_DATA_HOME/ochat/sessions` (default `~/.local/share/ochat/sessions`). */
export function sessionsDir(env: NodeJS.ProcessEnv): string {
  return join(dataDir(env), 'sessions');
}

/** A session opened for the chat: what it holds and, unless read-only, a writer that owns it. */
export interface OpenedSession {
  parsed: ParsedSession;
  path: string;
  /** Undefined when read-only (see `readOnly`). */
  writer: SessionWriter | undefined;
  /** Why nothing is written to it: corrupt, newer format, or held by another process. */
  readOnly: string | undefined;
  /** The pid of the live ochat that holds it (then it is read-only), if one does. */
  holder?: number;
  /** Releases the lock and closes the file. */
  close(): void;
}

/**
 * `another ochat (pid 4242)`; without the pid where the lock does not hold one yet (another ochat
 * is writing it): never "pid 0".
 */
export function anotherOchat(pid: number): string {
  return pid > 0 ? `another ochat (pid ${pid})` : 'another ochat';
}

/** Session ids sort by creation time: `20261203-061422-3fa9`. */
export function newSessionId(now: Date): string {
  const iso = now.toISOString();
  const stamp = `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
  return `${stamp}-${nodeBuiltin<typeof Crypto>('node:crypto').randomBytes(2).toString('hex')}`;
}

/** A session file that cannot be used, with a message for the user. */
export class SessionNotFoundError extends Error {
  override readonly name = 'SessionNotFoundError';

  constructor(
    message: string,
    /** What was asked for, when no session matched it at all (not ambiguous, not held). */
    readonly unmatched?: string,
  ) {
    super(message);
  }
}

/** The sessions directory: creates, opens, lists, finds and deletes session files. */
export class SessionStore {
  constructor(
    readonly dir: string,
    private readonly pid = process.pid,
    private readonly alive: (pid: number) => boolean = processAlive,
  ) {}

  private pathOf(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }

  private lockOf(id: string): LockFile {
    return new LockFile(join(this.dir, `${id}.lock`), this.pid, this.alive);
  }

  /** Creates a new session file (header written) and takes its lock. */
  create(
    header: Omit<SessionHeader, 'type' | 'version' | 'id'>,
    now: Date,
    entries: SessionEntry[] = [],
    listener: WriterListener = {},
  ): OpenedSession {
    try {
      makeDirectory(this.dir);
    } catch (error) {
      throw new SessionSaveError(fileErrorReason(error), this.dir, { cause: error });
    }
    const id = newSessionId(now);
    const full: SessionHeader = { type: 'session', version: SESSION_FORMAT_VERSION, id, ...header };
    const lock = this.lockOf(id);
    const path = this.pathOf(id);
    let writer: SessionWriter;
    try {
      lock.acquire();
      writer = new SessionWriter(path, listener);
    } catch (error) {
      lock.release();
      // Neither the lock nor the file was made: name the folder, not a file that does not exist.
      throw new SessionSaveError(fileErrorReason(error), this.dir, { cause: error });
    }
    writer.append(full);
    for (const entry of entries) writer.append(entry);
    return {
      parsed: { header: full, entries, notices: [], readOnly: undefined, validBytes: 0 },
      path,
      writer,
      readOnly: undefined,
      close: () => {
        writer.close();
        lock.release();
      },
    };
  }

  /** Reads a session without locking it (listing, export, `/history` of another session). */
  read(id: string): ParsedSession {
    const path = this.pathOf(id);
    try {
      return readSessionFile(path, `session ${id}`);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') throw new SessionNotFoundError(`No session "${id}".`);
      if (error instanceof SessionFileError) throw error;
      throw new SessionFileError(`session ${id}: cannot be read: ${fileErrorReason(error)}.`, {
        cause: error,
      });
    }
  }

  /**
   * Opens a session to continue it: read, locked, and a writer at its end. Read-only (no writer)
   * when the file is damaged, from a newer format, held by a live process (`holder`), or in a folder
   * that cannot be written (a read-only disk: it is read in memory, and said).
   */
  open(id: string): OpenedSession {
    const parsed = this.read(id);
    const path = this.pathOf(id);
    const lock = this.lockOf(id);
    let readOnly = parsed.readOnly;
    let taken: ReturnType<LockFile['acquire']> | undefined;
    try {
      taken = lock.acquire();
    } catch (error) {
      // A read-only or full disk: the conversation is still all there, to be read in memory.
      readOnly ??= `its folder cannot be written (${fileErrorReason(error)})`;
    }
    let holder: number | undefined;
    if (taken && !taken.ok && taken.unusable) {
      readOnly ??= `its lock file is ${taken.unusable}, not a lock, and cannot be set aside`;
    } else if (taken && !taken.ok) {
      holder = taken.holder.pid;
      readOnly ??= `${anotherOchat(holder)} has it open`;
    } else if (taken?.setAside) {
      const { what, keptAs } = taken.setAside;
      parsed.notices.push(`The session's lock file was ${what}, not a lock; it was set aside as ${keptAs}.`);
    }
    let writer: SessionWriter | undefined;
    if (readOnly === undefined) {
      try {
        writer = new SessionWriter(path, { validBytes: parsed.validBytes });
      } catch (error) {
        readOnly = `it cannot be written: ${fileErrorReason(error)}`;
      }
    }
    return {
      parsed,
      path,
      writer,
      readOnly,
      holder,
      close: () => {
        writer?.close();
        if (taken?.ok) lock.release();
      },
    };
  }

  /** Every session, newest activity first. */
  list(): SessionSummary[] {
    return indexSessions(this.dir).sessions;
  }

  /** Every session, and the `*.jsonl` files that cannot be opened as one (with why). */
  index(): SessionIndex {
    return indexSessions(this.dir);
  }

  /**
   * Finds a session by id, id prefix or name (exact names win over prefixes). Throws a
   * {@link SessionNotFoundError} saying what was not found or what was ambiguous.
   */
  find(query: string): SessionSummary {
    const { sessions: all, unreadable } = this.index();
    const broken = unreadable.find((file) => file.id === query);
    if (broken) throw new SessionFileError(`Session ${query} exists but cannot be opened: ${broken.reason}.`);
    const exact = all.filter((s) => s.id === query || s.name === query);
    if (exact.length >= 1) return exact[0];
    const prefixed = all.filter((s) => s.id.startsWith(query));
    if (prefixed.length === 1) return prefixed[0];
    if (prefixed.length > 1)
      throw new SessionNotFoundError(
        `"${query}" matches ${prefixed.length} sessions (${prefixed
          .slice(0, 3)
          .map((s) => s.id)
          .join(', ')}…); give more of the id.`,
      );
    throw new SessionNotFoundError(`No session "${query}". ochat --list-sessions lists them.`, query);
  }

  /** The most recent session started in `cwd`, if any. */
  newestIn(cwd: string): SessionSummary | undefined {
    return this.list().find((s) => s.cwd === cwd);
  }

  /** Deletes a session file; refuses one another live process holds. */
  delete(id: string): void {
    const lock = this.lockOf(id);
    const taken = lock.acquire();
    if (!taken.ok)
      throw new SessionNotFoundError(`Session ${id} is open in ${anotherOchat(taken.holder.pid)}.`);
    try {
      unlinkSync(this.pathOf(id));
    } catch {
      throw new SessionNotFoundError(`No session "${id}".`);
    } finally {
      lock.release();
    }
  }
}

export { SessionFileError, type SessionSummary };
