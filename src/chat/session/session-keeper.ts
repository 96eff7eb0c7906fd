import { existsSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import type { Conversation } from '../../conversation/conversation.js';
import { fileErrorReason } from '../../platform/errno.js';
import { type OwnFileRead, readOwnFile } from '../../platform/own-file.js';
import { exportJson, exportMarkdown, parseJsonExport } from '../../sessions/session-export.js';
import type { SessionServer, SettingKey } from '../../sessions/session-format.js';
import { formatHistory } from '../../sessions/session-history.js';
import {
  type CompactionFailure,
  SessionRecorder,
  type UnsavedLines,
} from '../../sessions/session-recorder.js';
import { type ReplayedSession, replaySession } from '../../sessions/session-replay.js';
import type { OpenedSession, SessionStore, SessionSummary } from '../../sessions/session-store.js';
import type { ModelSettings } from '../request/model-settings.js';
import type { RequestBuilder } from '../request/request-builder.js';

/** What the keeper works with. */
export interface SessionKeeperDeps {
  /** Undefined when sessions are off (one-shot mode): nothing is recorded. */
  store: SessionStore | undefined;
  cwd: string;
  now: () => Date;
  conversation: Conversation;
  settings: ModelSettings;
  /** Its meter's and tool recency's changes are recorded, so a resume measures and sends as the session did. */
  requests: Pick<RequestBuilder, 'meter' | 'toolRecency' | 'onShortenedChange'>;
  /** Told when the session file cannot be written (once, until writing works again). */
  onError: (error: Error) => void;
  /** Writing the session works again: the lines kept meanwhile (how many) were written. */
  onRecovered?: (lines: number) => void;
  /** The server the chat talks to, recorded in the header: its protocol, name and URL. */
  server?: () => SessionServer;
}

/** A session command that cannot do what was asked, with a message for the user (e.g. `/save` to an existing file). */
export class SessionCommandError extends Error {
  override readonly name = 'SessionCommandError';
}

/** A session opened to continue it: what it holds, replayed, and the file itself. */
export interface ResumedSession {
  opened: OpenedSession;
  replayed: ReplayedSession;
}

/**
 * The chat's session: records what the conversation appends and every setting change to the
 * session file, and opens saved sessions to continue them. One recorder at a time; `/new` and
 * `/resume` close it and start another.
 */
export class SessionKeeper {
  private recorder: SessionRecorder | undefined;
  private recorded: { model?: string; numCtx?: number } = {};

  constructor(private readonly deps: SessionKeeperDeps) {
    this.recorder = this.newRecorder();
    deps.conversation.listen({
      messageAppended: (message) => this.recorder?.recordMessage(message),
      recordAdded: (record) => this.recorder?.recordCompaction(record),
      repliesReplaced: (ids) => this.recorder?.recordReplaced(ids),
    });
    deps.requests.meter.onChange = (state) => this.recorder?.recordSetting('meter', state);
    deps.requests.toolRecency.onChange = (state) => this.recorder?.recordSetting('tool_recency', state);
    deps.requests.onShortenedChange = (byId) => this.recorder?.recordSetting('shortened', byId);
    deps.settings.listen((setting, value) => {
      if (setting === 'model' || setting === 'num_ctx') {
        const connected = deps.settings.connected;
        if (connected) this.modelOpened(connected.name, connected.numCtx);
      } else this.recordSetting(setting, value);
    });
  }

  private newRecorder(resumed?: OpenedSession): SessionRecorder | undefined {
    const { store, cwd, now, settings, onError, onRecovered } = this.deps;
    if (!store) return undefined;
    const recorder = new SessionRecorder(
      {
        store,
        cwd,
        now,
        headerSettings: () => ({
          ...(this.deps.server ? { server: this.deps.server() } : {}),
          model: settings.connected?.name,
          system: settings.system,
          options: { ...settings.options },
        }),
        onError,
        onRecovered,
      },
      resumed,
    );
    // The tool list is part of every request: a new session starts with the one in force.
    if (!resumed) recorder.recordSetting('tools', settings.toolStates());
    return recorder;
  }

  /** Whether sessions are saved at all. */
  get enabled(): boolean {
    return this.deps.store !== undefined;
  }

  /** The current session's id (once its first message made a file). */
  get id(): string | undefined {
    return this.recorder?.id;
  }

  /** Why the current session is not written to, if it is not. */
  get readOnly(): string | undefined {
    return this.recorder?.readOnly;
  }

  recordSetting(key: SettingKey, value: unknown): void {
    this.recorder?.recordSetting(key, value);
  }

  /** The model or its window changed: recorded, so a resume opens it with the same num_ctx. */
  modelOpened(name: string, numCtx: number): void {
    if (name !== this.recorded.model) this.recorder?.recordSetting('model', name);
    if (numCtx !== this.recorded.numCtx) this.recorder?.recordSetting('num_ctx', numCtx);
    this.recorded = { model: name, numCtx };
  }

  compactionFailed(failure: CompactionFailure): void {
    this.recorder?.recordCompactionFailure(failure);
  }

  uncompacted(): void {
    this.recorder?.recordUncompact();
  }

  /** Closes the current session; the next message starts a new one with the settings in force. */
  startNew(): void {
    this.recorder?.close();
    this.recorder = this.newRecorder();
    // The new file's header and first lines must carry the model again.
    this.recorded = {};
    const connected = this.deps.settings.connected;
    if (connected) this.modelOpened(connected.name, connected.numCtx);
  }

  /**
   * Closes the session file (on quit), releasing its lock. Lines it could not write (a full disk)
   * are kept in a file in another writable place; returns what to tell the user then.
   */
  close(): string | undefined {
    const unsaved = this.recorder?.close();
    this.recorder = undefined;
    return unsaved && keepUnsaved(unsaved, this.deps.cwd, this.deps.now());
  }

  private requireStore(): SessionStore {
    if (!this.deps.store) throw new SessionCommandError('sessions are not saved in this mode.');
    return this.deps.store;
  }

  /** Finds a session by id, id prefix or name; `true`: the newest of this directory. */
  find(query: string | true): SessionSummary | undefined {
    const store = this.requireStore();
    return query === true ? store.newestIn(this.deps.cwd) : store.find(query);
  }

  list(): SessionSummary[] {
    return this.deps.store?.list() ?? [];
  }

  /** The sessions started in this directory, newest first. */
  listHere(): SessionSummary[] {
    return this.list().filter((session) => session.cwd === this.deps.cwd);
  }

  /**
   * Opens session `id` to continue it (read-only when damaged, newer, or held by another
   * process) and makes it the one recorded to; the caller puts its state into the chat.
   */
  resume(id: string): ResumedSession {
    const store = this.requireStore();
    const opened = store.open(id);
    this.recorder?.close();
    this.recorder = this.newRecorder(opened);
    const replayed = replaySession(opened.parsed.header, opened.parsed.entries);
    this.recorded = { model: replayed.settings.model, numCtx: replayed.settings.numCtx };
    return { opened, replayed };
  }

  /** Renames the current session (the name is written with its first message if it has none yet). */
  rename(name: string): void {
    this.recorder?.recordSetting('name', name);
  }

  /** Deletes a session other than the current one. */
  delete(id: string): void {
    if (id === this.id)
      throw new SessionCommandError('that is the current session; start another with /new first.');
    this.requireStore().delete(id);
  }

  /** The current session as stored (empty when nothing was said yet). */
  private current():
    | { header: OpenedSession['parsed']['header']; entries: OpenedSession['parsed']['entries'] }
    | undefined {
    const id = this.id;
    if (!id) return undefined;
    const parsed = this.requireStore().read(id);
    return { header: parsed.header, entries: parsed.entries };
  }

  /** `/history`: the whole session as stored, compacted parts and every compaction attempt included. */
  history(): string {
    const current = this.current();
    return current
      ? formatHistory(current.header, current.entries)
      : 'Nothing has been said in this session yet.';
  }

  /** `/save <file>`: Markdown for `.md`, JSON for `.json`; never overwrites a file. Returns the path. */
  save(file: string): string {
    const path = resolve(this.deps.cwd, file);
    const ext = extname(path).toLowerCase();
    if (ext !== '.md' && ext !== '.json')
      throw new SessionCommandError(`give a file ending in .md (Markdown) or .json, not "${file}".`);
    if (existsSync(path)) throw new SessionCommandError(`${file} exists; choose another name.`);
    const current = this.current();
    if (!current) throw new SessionCommandError('nothing has been said in this session yet.');
    writeFileSync(
      path,
      ext === '.md'
        ? exportMarkdown(current.header, current.entries)
        : exportJson(current.header, current.entries),
    );
    return path;
  }

  /**
   * A copy of session `id` as a new session of this directory (its name left behind, so the name
   * still finds the original): how a session another ochat holds is continued. Returns the copy's id.
   */
  copy(id: string): string {
    const store = this.requireStore();
    const { header, entries } = store.read(id);
    const { type: _type, version: _version, id: _id, ...rest } = header;
    const created = store.create(
      { ...rest, created: this.deps.now().toISOString(), cwd: this.deps.cwd },
      this.deps.now(),
      entries.filter((entry) => !(entry.type === 'setting' && entry.key === 'name')),
    );
    created.close();
    return created.parsed.header.id;
  }

  /** `/load <file>`: imports a JSON export as a new session; returns its id (then resumed). */
  load(file: string): string {
    const store = this.requireStore();
    const path = resolve(this.deps.cwd, file);
    let read: OwnFileRead;
    try {
      // Opened without blocking and refused unless a regular file: a FIFO named x.json would hang the chat.
      read = readOwnFile(path, Number.POSITIVE_INFINITY);
    } catch (error) {
      throw new SessionCommandError(`cannot read ${file}: ${fileErrorReason(error)}.`, { cause: error });
    }
    if (read.kind === 'absent') throw new SessionCommandError(`cannot read ${file}: no such file or folder.`);
    if (read.kind === 'bad')
      throw new SessionCommandError(`cannot read ${file}: it is ${read.what}, not a file.`);
    const data = parseJsonExport(read.bytes.toString('utf8'));
    const { type: _type, version: _version, id: _id, ...rest } = data.header;
    const created = store.create(
      { ...rest, created: this.deps.now().toISOString(), cwd: this.deps.cwd },
      this.deps.now(),
      data.entries,
    );
    created.close();
    return created.parsed.header.id;
  }
}

/**
 * Writes lines a session could not save into the first writable place of the temporary folder,
 * the working directory and the home folder (the session's own disk is full), and says how many
 * and where, in words: they were dropped silently on quit before.
 */
function keepUnsaved(unsaved: UnsavedLines, cwd: string, now: Date): string {
  const count = `${unsaved.lines} line${unsaved.lines === 1 ? '' : 's'} of this session could not be saved`;
  const name = `ochat-unsaved-${now.toISOString().replace(/[:.]/g, '-')}.jsonl`;
  for (const dir of [tmpdir(), cwd, homedir()]) {
    const file = join(dir, name);
    try {
      writeFileSync(file, unsaved.text, { flag: 'wx', mode: 0o600 });
    } catch {
      continue;
    }
    const restore = unsaved.sessionPath
      ? `; once there is room, \`cat ${file} >> ${unsaved.sessionPath}\` puts them back`
      : '';
    return `${count}; they are kept in ${file}${restore}.`;
  }
  return `${count}, nor kept anywhere else: no folder could be written.`;
}
