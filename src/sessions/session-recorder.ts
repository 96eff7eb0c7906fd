import type { CompactionRecord } from '../conversation/compaction-record.js';
import type { Message } from '../conversation/message.js';
import type { SessionEntry, SessionHeader, SessionServer, SettingKey } from './session-format.js';
import type { OpenedSession, SessionStore } from './session-store.js';
import type { WriterListener } from './session-writer.js';

/** A compaction that changed nothing, as recorded (see `compaction-failed` in session-format.ts). */
export type CompactionFailure = Omit<Extract<SessionEntry, { type: 'compaction-failed' }>, 'type' | 'at'>;

/** Lines a session could not write before it closed (a full disk): to be kept elsewhere. */
export interface UnsavedLines {
  lines: number;
  /** The lines, as they belong at the end of the session file. */
  text: string;
  /** The session file they belong to (undefined: it was never created). */
  sessionPath?: string;
}

/** The settings a new session file's header starts from. */
export interface HeaderSettings {
  server?: SessionServer;
  model?: string;
  system?: string;
  options: Record<string, unknown>;
}

/** What the recorder works with. */
export interface SessionRecorderDeps {
  store: SessionStore;
  cwd: string;
  now: () => Date;
  /** The settings in force, read when the file is created. */
  headerSettings: () => HeaderSettings;
  /**
   * Told once when the file cannot be created or written; the chat goes on, and what it appends
   * is kept in memory and written when writing works again.
   */
  onError: (error: Error) => void;
  /** Writing works again: the kept lines (how many) were written. */
  onRecovered?: (lines: number) => void;
}

/**
 * Writes what the conversation appends to the session file, as it happens (gemini-cli's recorder
 * shape: the controller never touches files). The file is created with the first message, so a
 * run in which nothing was said leaves no empty session behind; settings changed before it are
 * kept and written after the header.
 */
export class SessionRecorder {
  private session: OpenedSession | undefined;
  private pending: SessionEntry[] = [];
  /** Writing failed and has not worked since (said once). */
  private failing = false;
  /** Told by the writer (and by creation) when writing fails and when it works again. */
  readonly listener: WriterListener = {
    onError: (error) => this.failed(error),
    onRecovered: (lines) => this.recovered(lines),
  };

  constructor(
    private readonly deps: SessionRecorderDeps,
    /** A resumed session to append to (its writer undefined when read-only). */
    resumed?: OpenedSession,
  ) {
    this.session = resumed;
    resumed?.writer?.listen(this.listener);
  }

  /** The session's id, once there is a file. */
  get id(): string | undefined {
    return this.session?.parsed.header.id;
  }

  /** Why nothing is written (read-only session), else undefined. */
  get readOnly(): string | undefined {
    return this.session?.readOnly;
  }

  /** The session's file, once there is one. */
  get path(): string | undefined {
    return this.session?.path;
  }

  recordMessage(message: Message): void {
    this.write({ type: 'message', message });
  }

  recordCompaction(record: CompactionRecord): void {
    this.write({ type: 'compaction', record });
  }

  recordCompactionFailure(failure: CompactionFailure): void {
    this.write({ type: 'compaction-failed', at: this.at(), ...failure });
  }

  recordUncompact(): void {
    this.write({ type: 'uncompact', at: this.at() });
  }

  recordReplaced(ids: number[]): void {
    this.write({ type: 'replaced', at: this.at(), ids });
  }

  recordSetting(key: SettingKey, value: unknown): void {
    // JSON has no undefined: a cleared setting is stored as null.
    this.write({ type: 'setting', at: this.at(), key, value: value ?? null });
  }

  /** Closes the file and releases its lock; the next message starts a new session. */
  close(): UnsavedLines | undefined {
    const session = this.session;
    session?.close();
    this.session = undefined;
    const pending = this.pending;
    this.pending = [];
    // What writing never took, even at this last try: the caller keeps it elsewhere and says so.
    // Without a file, only once a message was said: before that no file was due (settings alone
    // make no session), so nothing was lost.
    const due = pending.some((entry) => entry.type === 'message');
    const text = session
      ? (session.writer?.unsavedText() ?? '')
      : due
        ? pending.map((entry) => `${JSON.stringify(entry)}\n`).join('')
        : '';
    if (!text) return undefined;
    return { lines: text.split('\n').length - 1, text, sessionPath: session?.path };
  }

  private at(): string {
    return this.deps.now().toISOString();
  }

  private write(entry: SessionEntry): void {
    if (this.session) {
      this.session.writer?.append(entry);
      return;
    }
    this.pending.push(entry);
    if (entry.type !== 'message') return;
    // Tried again with each message until it works: the lines wait in `pending` meanwhile.
    const waiting = this.pending.length;
    try {
      const header: Omit<SessionHeader, 'type' | 'version' | 'id'> = {
        created: this.at(),
        cwd: this.deps.cwd,
        ...this.deps.headerSettings(),
      };
      this.session = this.deps.store.create(header, this.deps.now(), this.pending, this.listener);
      this.pending = [];
    } catch (error) {
      this.failed(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (this.failing && !this.session.writer?.unsavedLines) this.recovered(waiting + 1);
  }

  private failed(error: Error): void {
    if (this.failing) return;
    this.failing = true;
    this.deps.onError(error);
  }

  private recovered(lines: number): void {
    if (!this.failing) return;
    this.failing = false;
    this.deps.onRecovered?.(lines);
  }
}
