import { type ChatBackend, serverName } from '../../backend/chat-backend.js';
import { BackendError } from '../../backend/errors.js';
import type { ChatReply } from '../../backend/interfaces.js';
import type { RunningModel } from '../../backend/model-lifecycle.js';
import { sameModel } from '../../backend/model-name.js';
import { describeError } from '../../text/describe-error.js';
import { formatBytes } from '../../text/format-bytes.js';
import type { ConnectedModel } from '../request/model-selection.js';
import type { RequestBuilder } from '../request/request-builder.js';
import { PullTracker } from '../state/pull-tracker.js';
import type { ScreenLog } from '../state/screen-log.js';
import { cpuPercent, type MemoryPoint, processorSplit, spills, suggestNumCtx } from './gpu-fit.js';

/** What the local model's keeper works with. */
export interface LocalModelDeps {
  backend: ChatBackend;
  requests: Pick<RequestBuilder, 'loadRequest'>;
  screen: ScreenLog;
  /** False in one-shot mode: no warm-up (it would only add a request), no spill check. */
  interactive: boolean;
  /** Milliseconds since the epoch (tests pass a clock). */
  now?: () => number;
}

/** A reply waits this long for its first byte before the status line says the model is loading. */
export const LOADING_AFTER_MS = 1000;
/** A load this long or longer is worth saying after the reply (`loaded in 14.2 s`). */
const LOAD_WORTH_SAYING_NS = 1e9;
/** `loaded in 14.2 s`. */
function loadedIn(loadNs: number): string {
  return `loaded in ${(loadNs / 1e9).toFixed(1)} s`;
}

/** Progress redraws of a pull at most this often (each line of it would be a full render). */
const PULL_REDRAW_MS = 100;

/** One reply's wait for the model: tells the watch when the first byte came and when it ended. */
export interface ReplyLoadWatch {
  firstByte(): void;
  end(reply?: ChatReply): void;
}

/**
 * The local model's life at the server, made visible: the warm-up preload, the `loading m1… 12 s`
 * status, what the window costs in GPU memory (the spill warning and its mark), `/pull`, `/ps`
 * and `/unload`. Every server string reaches the screen through the notices and status line,
 * which sanitize it.
 */
export class LocalModel {
  /** Sizes measured per model, for the window suggestion. */
  readonly #points = new Map<string, MemoryPoint[]>();
  /** `model@numCtx` pairs already measured (and warned about). */
  readonly #measured = new Set<string>();
  /** `model@numCtx` pairs known to be loaded (a reply came back): no /api/ps asked before sending. */
  readonly #warm = new Set<string>();
  #preload: AbortController | undefined;
  /** A warm-up's long load, by `model@numCtx`, not yet said beside a reply's figures. */
  readonly #unsaidLoadNs = new Map<string, number>();
  readonly #now: () => number;

  constructor(private readonly deps: LocalModelDeps) {
    this.#now = deps.now ?? Date.now;
  }

  // ── warm-up ──────────────────────────────────────────────────────────────────────────────

  /**
   * Loads the model in the background with the window and keep_alive its chats will send, so
   * the first reply does not wait for the load; the status line says `loading m1…` until it is
   * ready. Then measures what the window costs. Not in one-shot mode.
   */
  preload(model: ConnectedModel): void {
    // An OpenAI-compatible server loads its model when it starts: nothing to warm up or measure.
    if (!this.deps.interactive || this.deps.backend.server?.api === 'openai') return;
    this.#preload?.abort();
    const controller = new AbortController();
    this.#preload = controller;
    const loading = this.showLoading(model.name, this.#now());
    this.deps.backend.loadModel(this.deps.requests.loadRequest(model), controller.signal).then(
      () => {
        this.hideLoading(loading);
        if (this.#preload !== controller) return;
        this.#warm.add(key(model));
        // A long load is said when it ends, and again with the reply that waited for it (whose own
        // load_duration is then ~0: the preload did the loading). Ollama's answer to a preload
        // carries no durations: the wait is the load.
        const loadNs = (this.#now() - loading.since) * 1e6;
        if (loadNs >= LOAD_WORTH_SAYING_NS) {
          this.#unsaidLoadNs.set(key(model), loadNs);
          this.deps.screen.store.update({ lastStats: loadedIn(loadNs) });
        }
        void this.measure(model);
      },
      (error: unknown) => {
        this.hideLoading(loading);
        if (controller.signal.aborted) return;
        // Not fatal: the first message loads it instead.
        this.deps.screen.notice(
          'warning',
          `Could not load ${model.name} in advance: ${describeError(error)}`,
        );
      },
    );
  }

  /** Stops a warm-up in progress (a new model, or the chat ends). */
  cancelPreload(): void {
    this.#preload?.abort();
    this.#preload = undefined;
  }

  // ── one reply's wait ─────────────────────────────────────────────────────────────────────

  /**
   * Watches a request for its first byte: when the model is not loaded (asked of /api/ps in the
   * background, unless a reply came back from it already) or after a second without a byte, the
   * status line says `loading m1… 12 s`, counted from the request.
   */
  watchReply(model: ConnectedModel): ReplyLoadWatch {
    const since = this.#now();
    let waiting = true;
    let shown: { model: string; since: number } | undefined;
    const show = () => {
      if (waiting && !shown) shown = this.showLoading(model.name, since);
    };
    const timer = setTimeout(show, LOADING_AFTER_MS);
    // One-shot mode has no status line to show it in: no extra request before its first byte.
    if (this.deps.interactive && !this.#warm.has(key(model)) && this.deps.backend.server?.api !== 'openai') {
      this.deps.backend.runningModels().then(
        (running) => {
          const entry = running.find((r) => sameModel(r.name, model.name));
          if (!entry || (entry.contextLength !== undefined && entry.contextLength !== model.numCtx)) show();
        },
        () => {},
      );
    }
    const stop = () => {
      waiting = false;
      clearTimeout(timer);
      if (shown) this.hideLoading(shown);
    };
    return {
      firstByte: stop,
      end: (reply) => {
        stop();
        if (reply) this.replied(model, reply);
      },
    };
  }

  /** After a reply: a long load is said once (`loaded in 14.2 s`), and a new window is measured. */
  private replied(model: ConnectedModel, reply: ChatReply): void {
    this.#warm.add(key(model));
    const loadNs = Math.max(reply.metrics.loadDurationNs, this.#unsaidLoadNs.get(key(model)) ?? 0);
    this.#unsaidLoadNs.delete(key(model));
    if (loadNs >= LOAD_WORTH_SAYING_NS) {
      const loaded = loadedIn(loadNs);
      this.deps.screen.store.update((s) => ({
        lastStats: s.lastStats ? `${loaded} · ${s.lastStats}` : loaded,
      }));
    }
    const ollama = this.deps.backend.server?.api !== 'openai';
    if (ollama && this.deps.interactive && !this.#measured.has(key(model))) void this.measure(model);
  }

  // ── what the window costs ────────────────────────────────────────────────────────────────

  /**
   * Asks /api/ps what the model takes at this window; when part of it runs on the CPU, says so
   * once, as `ollama ps` prints it, with the largest window that would fit when two measured
   * windows allow an estimate, and keeps a mark in the status line while it spills.
   */
  async measure(model: ConnectedModel): Promise<void> {
    const measuredKey = key(model);
    if (this.#measured.has(measuredKey)) return;
    this.#measured.add(measuredKey);
    let entry: RunningModel | undefined;
    try {
      entry = (await this.deps.backend.runningModels()).find((r) => sameModel(r.name, model.name));
    } catch {
      this.#measured.delete(measuredKey);
      return;
    }
    if (!entry || entry.size <= 0) {
      this.#measured.delete(measuredKey);
      return;
    }
    const point = { numCtx: entry.contextLength ?? model.numCtx, size: entry.size, sizeVram: entry.sizeVram };
    const points = this.#points.get(model.name) ?? [];
    points.push(point);
    this.#points.set(model.name, points);
    if (!spills(point)) {
      this.deps.screen.store.update({ spill: undefined });
      return;
    }
    this.deps.screen.store.update({ spill: `${cpuPercent(point.size, point.sizeVram)}% CPU` });
    const suggestion = suggestNumCtx(points, point);
    const fits = suggestion ? `; /set num_ctx ${suggestion} fits the GPU` : '';
    this.deps.screen.notice(
      'warning',
      `${model.name} is ${processorSplit(point.size, point.sizeVram)} at num_ctx ${point.numCtx} — replies will be slower${fits}.`,
    );
  }

  /** `/set num_ctx` changed the window: load it now (and measure it) rather than at the next message. */
  resized(model: ConnectedModel): void {
    this.deps.screen.store.update({ spill: undefined });
    this.preload(model);
  }

  // ── /ps, /unload ─────────────────────────────────────────────────────────────────────────

  /** `/ps`: the loaded models as `ollama ps` lists them: name, size, processor, context, until. */
  async showLoaded(signal?: AbortSignal): Promise<void> {
    const running = await this.deps.backend.runningModels(signal);
    if (running.length === 0) {
      this.deps.screen.notice('info', 'No model is loaded.');
      return;
    }
    const now = this.#now();
    const rows = [
      ['NAME', 'SIZE', 'PROCESSOR', 'CONTEXT', 'UNTIL'],
      ...running.map((r) => [
        r.name,
        formatBytes(r.size),
        processorSplit(r.size, r.sizeVram),
        r.contextLength !== undefined ? String(r.contextLength) : '',
        until(r.expiresAt, now),
      ]),
    ];
    const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
    const lines = rows.map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('   ')
        .trimEnd(),
    );
    this.deps.screen.notice('info', lines.join('\n'));
  }

  /** `/unload`: frees the model now, as `ollama stop` does; the next message loads it again. */
  async unload(model: ConnectedModel, signal?: AbortSignal): Promise<void> {
    this.cancelPreload();
    await this.deps.backend.unloadModel(model.name, signal);
    this.#warm.delete(key(model));
    this.deps.screen.store.update({ spill: undefined });
    this.deps.screen.notice('success', `Unloaded ${model.name}; the next message loads it again.`);
  }

  /** The model was unloaded or replaced: its window is no longer known to be loaded. */
  forget(model: ConnectedModel): void {
    this.#warm.delete(key(model));
  }

  // ── pull ─────────────────────────────────────────────────────────────────────────────────

  /**
   * Downloads `name` with `ollama pull`'s progress in the live area (line mode prints plain
   * lines). Ctrl+C (`signal`) stops it at once; Ollama keeps what arrived and resumes next time.
   * Every outcome is said in one line naming the model; true when it succeeded.
   */
  async pull(name: string, signal?: AbortSignal): Promise<boolean> {
    const { backend, screen } = this.deps;
    const tracker = new PullTracker();
    let drawnAt = Number.NEGATIVE_INFINITY;
    let steps = 0;
    screen.store.update({ busy: `pulling ${name}…`, pull: { model: name, state: tracker.state() } });
    try {
      await backend.pullModel(
        name,
        (progress) => {
          const now = this.#now();
          tracker.add(progress, now);
          const state = tracker.state();
          // Each new step is drawn at once; byte counts at most every PULL_REDRAW_MS.
          if (state.steps.length === steps && now - drawnAt < PULL_REDRAW_MS) return;
          steps = state.steps.length;
          drawnAt = now;
          screen.store.update({ pull: { model: name, state } });
        },
        signal,
      );
      const total = tracker.state().total;
      screen.notice('success', `Pulled ${name}${total > 0 ? ` (${formatBytes(total)})` : ''}.`);
      return true;
    } catch (error) {
      if (signal?.aborted || (error instanceof BackendError && error.kind === 'aborted')) {
        screen.notice(
          'warning',
          `Stopped pulling ${name}. Ollama keeps what was downloaded; pulling it again resumes there.`,
        );
      } else {
        screen.notice('error', describeError(error));
      }
      return false;
    } finally {
      screen.store.update({ busy: undefined, pull: undefined });
    }
  }

  // ── the status line ──────────────────────────────────────────────────────────────────────

  private showLoading(model: string, since: number): { model: string; since: number; label?: string } {
    // An OpenAI-compatible server loaded its model when it started: a wait is the prompt being read.
    const loading =
      this.deps.backend.server?.api === 'openai'
        ? { model, since, label: `${serverName(this.deps.backend)} is reading the prompt…` }
        : { model, since };
    this.deps.screen.store.update({ loading });
    return loading;
  }

  /** Clears the loading mark if it is still this one (a newer wait may have replaced it). */
  private hideLoading(loading: { model: string; since: number; label?: string }): void {
    this.deps.screen.store.update((s) => (s.loading === loading ? { loading: undefined } : {}));
  }
}

function key(model: ConnectedModel): string {
  return `${model.name}@${model.numCtx}`;
}

/**
 * `ollama ps`'s UNTIL column, worded as Ollama words it (format/time.go): `Forever` past 20
 * years, `Stopping...` once expired, else `4 minutes from now`, `3 days from now`, `2 years from now`.
 */
export function until(expiresAt: string | undefined, now: number): string {
  if (!expiresAt) return 'Never';
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return '';
  const ahead = at - now;
  if (ahead <= 0) return 'Stopping...';
  if (Math.trunc(ahead / 3_600_000 / 24 / 365) > 20) return 'Forever';
  return `${humanDuration(ahead)} from now`;
}

/** A duration as Ollama's humanDuration says it, from seconds up to years. */
function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.round(ms / 3_600_000);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.trunc(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.trunc(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24 / 30)} months`;
  return `${Math.trunc(hours / 24 / 365)} years`;
}
