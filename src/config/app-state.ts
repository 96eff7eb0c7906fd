import { appendFileSync, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import { writeCacheFile } from '../platform/cache-file.js';
import { errnoCode, fileErrorReason } from '../platform/errno.js';
import { LockFile } from '../platform/lock-file.js';
import { makeDirectory } from '../platform/make-directory.js';
import { ownFileProblem, readOwnFile, setAside } from '../platform/own-file.js';
import { dataDir } from '../platform/xdg-paths.js';
import { INPUT_HISTORY_LIMIT } from './defaults.js';

/** What the state file holds; every field is checked on read, as the file may be hand-edited or stale. */
interface StoredState {
  lastModel?: string;
  inputHistory?: string[];
  calibration?: Record<string, number>;
  /** Directory → SHA-256 of the `.mcp.json` the user approved there. */
  mcpApprovals?: Record<string, string>;
  /** Host URL → the protocol that answered there, so the next start need not ask again. */
  serverApis?: Record<string, 'ollama' | 'openai'>;
}

/** Options of {@link AppState}. */
export interface AppStateOptions {
  /** Directory of `state.json`; defaults to {@link dataDir} (`~/.local/share/ochat`). */
  cwd?: string;
  /** Environment used to find the default directory; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Told (once) when the file cannot be read or written; state then lives in memory for this run. */
  onError?: (error: Error) => void;
}

/**
 * The longest a line waits for another process's hold on the history file before it is appended
 * regardless (a live holder that long is stuck; a trim of 1,000 short lines takes milliseconds).
 * The wait does not block the event loop.
 */
const LOCK_WAIT_MS = 5_000;

/**
 * The input history: one JSON string per line, appended, so two ochat processes writing at the
 * same moment both keep their lines (a read-modify-write of one file lost half of them). Appends
 * and the trim take the same lock: an append that raced a trim could land in the file the trim
 * had already replaced (lost) or after the lines the trim carried over (out of order).
 */
class HistoryFile {
  /** Lines waiting for another process's hold to end, oldest first: read as if written. */
  private waiting: string[] = [];
  private queue: Promise<void> | undefined;

  constructor(
    readonly path: string,
    /** Told when a line that had to wait could not be written. */
    private readonly onLateError: (error: unknown, entry: string) => void,
    /** Told when what was at `path` was no history file and was set aside (what it was, in words). */
    private readonly onSetAside: (message: string) => void,
  ) {}

  /**
   * The file's text ('' when there is none). Read as ochat's own files are: a FIFO, a device or a
   * file over MAX_HISTORY_BYTES in its place is set aside (and said), never read — it hung the
   * start or grew to gigabytes.
   */
  private text(): string {
    const read = readOwnFile(this.path, MAX_HISTORY_BYTES);
    if (read.kind === 'ok') return read.bytes.toString('utf8');
    if (read.kind === 'bad') {
      const keptAs = setAside(this.path);
      this.onSetAside(
        `the input history (${this.path}) was ${read.what}, not a history file; ${keptAs ? `it was set aside as ${keptAs}` : 'it could not be moved aside, so the history is kept in memory'}`,
      );
      if (!keptAs) throw new Error(`${this.path} is ${read.what}`);
    }
    return '';
  }

  private get lock(): LockFile {
    return new LockFile(`${this.path}.lock`);
  }

  read(): string[] {
    return [...parseHistoryLines(this.text()), ...this.waiting];
  }

  /**
   * Appends a line at once; while another process holds the file (appending or trimming), the line
   * waits for it without blocking the event loop, and so do the lines after it, in order.
   */
  append(entry: string, entries: readonly string[]): void {
    const count = entries.length;
    if (!this.queue && this.writeLocked(entry, count)) return;
    this.waiting.push(entry);
    const queue: Promise<void> = (this.queue ?? Promise.resolve())
      .then(() => this.writeWhenFree(entry))
      .catch((error: unknown) => this.onLateError(error, entry))
      .finally(() => {
        this.waiting.shift();
        if (this.queue === queue) this.queue = undefined;
      });
    this.queue = queue;
  }

  /**
   * Appends under the lock; false (nothing written) when another process holds it. `count`, the
   * lines the file held when the line was pushed, is counted again when the line had to wait:
   * others appended meanwhile (a count from before the wait left a busy file untrimmed).
   */
  private writeLocked(entry: string, count?: number): boolean {
    const lock = this.lock;
    if (!lock.acquire().ok) return false;
    try {
      this.write(entry, count ?? this.fileLines());
    } finally {
      lock.release();
    }
    return true;
  }

  private async writeWhenFree(entry: string): Promise<void> {
    const deadline = Date.now() + LOCK_WAIT_MS;
    while (!this.writeLocked(entry)) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 || !(await this.lock.waitWhileHeld(remaining))) {
        // Held past all reason: the line is worth more than the order.
        this.write(entry, this.fileLines());
        return;
      }
    }
  }

  /** The entries in the file now (none when it does not exist yet). */
  private fileLines(): number {
    return parseHistoryLines(this.text()).length;
  }

  private write(entry: string, count: number): void {
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    if (count + 1 >= 2 * INPUT_HISTORY_LIMIT) this.trim();
  }

  /**
   * Cuts the file back to its newest entries, written whole and renamed into place so no reader
   * sees half a file. Called with the lock held, so no other process appends meanwhile.
   */
  private trim(): void {
    const kept = parseHistoryLines(this.text()).slice(-INPUT_HISTORY_LIMIT);
    writeCacheFile(this.path, kept.map((e) => `${JSON.stringify(e)}\n`).join(''));
  }
}

/** One JSON string per line; a torn or hand-edited line is skipped, the rest kept. */
function parseHistoryLines(text: string): string[] {
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const entry: unknown = JSON.parse(line);
      if (typeof entry === 'string') entries.push(entry);
    } catch {
      // skipped
    }
  }
  return entries;
}

function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/** The state file holds a few settings and counts; one larger is not ochat's. */
const MAX_STATE_BYTES = 8 * 1024 * 1024;

/**
 * The history holds at most 2 × INPUT_HISTORY_LIMIT lines (then it is trimmed) of at most
 * HISTORY_ENTRY_MAX_CHARS each; a file larger than this is not ochat's.
 */
const MAX_HISTORY_BYTES = 64 * 1024 * 1024;

/** A sent message longer than this is not written to history.jsonl, which is read on every send. */
export const HISTORY_ENTRY_MAX_CHARS = 64 * 1024;

/**
 * What ochat remembers between runs, as opposed to what the user configures: the last model
 * used, the input history and each model's measured chars-per-token. Stored as
 * `<dataDir>/state.json` (state, not config: kept out of `~/.config`, where dotfile repos
 * would publish the input history), with the input history appended to `history.jsonl` beside
 * it. Never throws: a corrupt file is kept aside and said once; an unwritable one leaves the
 * state in memory.
 */
export class AppState {
  #store: Conf<StoredState> | undefined;
  #history: HistoryFile | undefined;
  #historyInMemory: string[] | undefined;
  #opening: Promise<void> | undefined;
  readonly #memory: StoredState = {};
  readonly #options: AppStateOptions;
  readonly #onError: (error: Error) => void;
  #errorReported = false;

  constructor(options: AppStateOptions = {}) {
    this.#options = options;
    this.#onError = options.onError ?? (() => {});
  }

  /**
   * Opens the state file, once; until then reads see only this run's writes, which are kept
   * and written on opening. conf (with ajv, semver, atomically) is loaded here, not on import,
   * so that whoever does not need the state yet (a one-shot before its first byte) does not wait.
   */
  open(): Promise<void> {
    this.#opening ??= this.#open();
    return this.#opening;
  }

  async #open(): Promise<void> {
    const { cwd, env = process.env } = this.#options;
    const dir = cwd ?? dataDir(env);
    try {
      // Made here, not by conf: its reason for a read-only disk would be ENOENT.
      makeDirectory(dir);
      const { default: Conf } = await import('conf');
      const open = () =>
        new Conf<StoredState>({
          projectName: 'ochat',
          cwd: dir,
          configName: 'state',
          // A file that is not JSON is kept aside below, never silently cleared.
          clearInvalidConfig: false,
          // Model names contain dots (`qwen2.5:7b`); dot paths would nest them.
          accessPropertiesByDotNotation: false,
          // Owner-only: the input history is private.
          configFileMode: 0o600,
        });
      // A FIFO or a device in its place hung the start (conf reads it whole): set aside, and said.
      const statePath = join(dir, 'state.json');
      const problem = ownFileProblem(statePath, MAX_STATE_BYTES);
      if (problem) {
        const keptAs = setAside(statePath);
        if (!keptAs) throw new Error(`the state file ${statePath} is ${problem}`);
        this.#fail(
          new Error(`the state file was ${problem}, not a state file; it was set aside as ${keptAs}`),
        );
      }
      try {
        this.#store = open();
      } catch (error) {
        const path = join(dir, 'state.json');
        if (!(error instanceof SyntaxError) || !existsSync(path)) throw error;
        const keptAs = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        renameSync(path, keptAs);
        this.#fail(new Error(`the state file was not valid JSON; it was kept as ${keptAs}`));
        this.#store = open();
      }
      this.#history = new HistoryFile(
        join(dir, 'history.jsonl'),
        (error, entry) => this.#keepInMemory(error, entry),
        (message) => this.#fail(new Error(message)),
      );
    } catch (error) {
      this.#fail(
        errnoCode(error) ? new Error(`${fileErrorReason(error)} (${dir})`, { cause: error }) : error,
      );
      return;
    }
    const pending = Object.entries(this.#memory) as [keyof StoredState, never][];
    for (const [key, value] of pending) this.#write(key, value);
  }

  /** Tells the owner once: one warning is news, one per keystroke would be noise. */
  #fail(error: unknown): void {
    if (this.#errorReported) return;
    this.#errorReported = true;
    // In words (`the file system is read-only`), never an errno text (`EROFS: read-only file system, open …`).
    const path =
      error instanceof Error && 'path' in error && typeof error.path === 'string' ? error.path : undefined;
    if (errnoCode(error))
      error = new Error(`${fileErrorReason(error)}${path ? ` (${path})` : ''}`, { cause: error });
    this.#onError(error instanceof Error ? error : new Error(String(error)));
  }

  /** The state file, or undefined when it is not open or could not be opened. */
  get path(): string | undefined {
    return this.#store?.path;
  }

  #read<Key extends keyof StoredState>(key: Key): unknown {
    if (!this.#store || Object.hasOwn(this.#memory, key)) return this.#memory[key];
    try {
      return this.#store.get(key);
    } catch (error) {
      this.#fail(error);
      return undefined;
    }
  }

  #write<Key extends keyof StoredState>(key: Key, value: StoredState[Key]): void {
    if (!this.#store) {
      // Not open yet (written on opening), or it could not be opened (reported then).
      this.#memory[key] = value;
      return;
    }
    try {
      // conf refuses to set undefined; clearing is a delete.
      if (value === undefined) this.#store.delete(key);
      else this.#store.set(key, value);
      delete this.#memory[key];
    } catch (error) {
      // Keep it for this run: losing ↑ history mid-chat would be worse than not saving it.
      this.#fail(error);
      this.#memory[key] = value;
    }
  }

  /** The model chatted with most recently, offered when no model is named. */
  get lastModel(): string | undefined {
    const value = this.#read('lastModel');
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  set lastModel(model: string | undefined) {
    this.#write('lastModel', model || undefined);
  }

  /** Lines the user sent, oldest first, for ↑/↓ recall (the newest {@link INPUT_HISTORY_LIMIT}). */
  get inputHistory(): string[] {
    return this.#historyEntries().slice(-INPUT_HISTORY_LIMIT);
  }

  #historyEntries(): string[] {
    if (this.#historyInMemory) return this.#historyInMemory;
    // Before history.jsonl, the history lived in state.json: still offered, oldest first.
    const legacy = this.#read('inputHistory');
    const before = Array.isArray(legacy)
      ? legacy.filter((entry): entry is string => typeof entry === 'string')
      : [];
    try {
      return [...before, ...(this.#history?.read() ?? [])];
    } catch (error) {
      this.#fail(error);
      return before;
    }
  }

  /**
   * Remembers a sent line; blank lines, repeats of the previous line and entries over
   * {@link HISTORY_ENTRY_MAX_CHARS} (a big paste: this run's prompt keeps it as a chip) are not stored.
   */
  pushHistory(entry: string): void {
    if (entry.trim() === '' || entry.length > HISTORY_ENTRY_MAX_CHARS) return;
    const history = this.#historyEntries();
    if (history.at(-1) === entry) return;
    try {
      if (this.#historyInMemory || !this.#history) throw new Error('history file unavailable');
      this.#history.append(entry, history);
    } catch (error) {
      this.#keepInMemory(error, entry, history);
    }
  }

  /** Keeps the history for this run: losing ↑ history mid-chat would be worse than not saving it. */
  #keepInMemory(error: unknown, entry: string, history = this.#historyEntries()): void {
    if (this.#history) this.#fail(error);
    const kept = history.at(-1) === entry ? history : [...history, entry];
    this.#historyInMemory = kept.slice(-INPUT_HISTORY_LIMIT);
  }

  #calibrations(): Record<string, number> {
    const value = this.#read('calibration');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter(([, ratio]) => isPositiveNumber(ratio)));
  }

  /** The measured chars per token of `model`, or undefined before its first real token count. */
  calibration(model: string): number | undefined {
    const calibrations = this.#calibrations();
    return Object.hasOwn(calibrations, model) ? calibrations[model] : undefined;
  }

  /** Remembers `model`'s chars per token; a non-finite or non-positive ratio is ignored. */
  setCalibration(model: string, charsPerToken: number): void {
    if (!isPositiveNumber(charsPerToken)) return;
    this.#write(
      'calibration',
      Object.fromEntries([...Object.entries(this.#calibrations()), [model, charsPerToken]]),
    );
  }

  #mcpApprovals(): Record<string, string> {
    const value = this.#read('mcpApprovals');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter(([, hash]) => typeof hash === 'string'));
  }

  /** The hash of the `.mcp.json` approved in `dir`, if any: a changed file is asked about again. */
  mcpApproval(dir: string): string | undefined {
    const approvals = this.#mcpApprovals();
    return Object.hasOwn(approvals, dir) ? approvals[dir] : undefined;
  }

  /** Remembers that the user approved the `.mcp.json` of `dir` with this content hash. */
  approveMcp(dir: string, hash: string): void {
    this.#write('mcpApprovals', { ...this.#mcpApprovals(), [dir]: hash });
  }

  #serverApis(): Record<string, 'ollama' | 'openai'> {
    const value = this.#read('serverApis');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter(([, api]) => api === 'ollama' || api === 'openai'),
    ) as Record<string, 'ollama' | 'openai'>;
  }

  /** The protocol that answered at `host` last time, if it was found out. */
  serverApi(host: string): 'ollama' | 'openai' | undefined {
    const apis = this.#serverApis();
    return Object.hasOwn(apis, host) ? apis[host] : undefined;
  }

  /** Remembers what answered at `host` (only when it changed: every write fsyncs the file). */
  setServerApi(host: string, api: 'ollama' | 'openai'): void {
    if (this.serverApi(host) !== api) this.#write('serverApis', { ...this.#serverApis(), [host]: api });
  }
}
