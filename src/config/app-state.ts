import type Conf from 'conf';
import { INPUT_HISTORY_LIMIT } from './defaults.js';
import { dataDir } from './paths.js';

/** What the state file holds; every field is checked on read, as the file may be hand-edited or stale. */
interface StoredState {
  lastModel?: string;
  inputHistory?: string[];
  calibration?: Record<string, number>;
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

function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/**
 * What ochat remembers between runs, as opposed to what the user configures: the last model
 * used, the input history and each model's measured chars-per-token. Stored as
 * `<dataDir>/state.json` (state, not config: kept out of `~/.config`, where dotfile repos
 * would publish the input history). Never throws: a corrupt file reads as empty and is
 * replaced on the next write; an unwritable one leaves the state in memory.
 */
export class AppState {
  #store: Conf<StoredState> | undefined;
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
    try {
      const { default: Conf } = await import('conf');
      this.#store = new Conf<StoredState>({
        projectName: 'ochat',
        cwd: cwd ?? dataDir(env),
        configName: 'state',
        clearInvalidConfig: true,
        // Model names contain dots (`qwen2.5:7b`); dot paths would nest them.
        accessPropertiesByDotNotation: false,
        // Owner-only: the input history is private.
        configFileMode: 0o600,
      });
    } catch (error) {
      this.#fail(error);
      return;
    }
    const pending = Object.entries(this.#memory) as [keyof StoredState, never][];
    for (const [key, value] of pending) this.#write(key, value);
  }

  /** Tells the owner once: one warning is news, one per keystroke would be noise. */
  #fail(error: unknown): void {
    if (this.#errorReported) return;
    this.#errorReported = true;
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

  /** Lines the user sent, oldest first, for ↑/↓ recall. */
  get inputHistory(): string[] {
    const value = this.#read('inputHistory');
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
  }

  /** Remembers a sent line; blank lines and repeats of the previous line are not stored. */
  pushHistory(entry: string): void {
    if (entry.trim() === '') return;
    const history = this.inputHistory;
    if (history.at(-1) === entry) return;
    history.push(entry);
    this.#write('inputHistory', history.slice(-INPUT_HISTORY_LIMIT));
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
}
