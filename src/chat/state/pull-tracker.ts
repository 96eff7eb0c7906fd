import type { PullProgress } from '../../backend/model-lifecycle.js';

/** One layer of a pull as it stands. */
export interface PullLayerState {
  /** The status line's name of it, `pulling <12 hex>`. */
  status: string;
  total: number;
  completed: number;
  /** Bytes per second over the last few seconds; 0 while not yet known. */
  rate: number;
}

/** A pull as it stands: the steps so far, in order, and each layer. */
export interface PullState {
  /** Statuses that are not a layer (`pulling manifest`, `verifying sha256 digest`, …), in order. */
  steps: string[];
  layers: PullLayerState[];
  /** Bytes of every layer announced so far (each is announced at 0 first, so the sum is whole). */
  total: number;
  completed: number;
  /** The rate of the layer downloading now, 0 while not known. */
  rate: number;
}

/** How far back the rate looks: long enough to be steady, short enough to follow a change. */
const RATE_WINDOW_MS = 5000;
/** A rate from less than this much time would jump about. */
const MIN_RATE_SPAN_MS = 250;

/** Folds a pull's progress lines into its state, with a rate per layer (time passed in: pure). */
export class PullTracker {
  readonly #steps: string[] = [];
  readonly #layers = new Map<
    string,
    { state: PullLayerState; samples: { at: number; completed: number }[] }
  >();

  /** One progress line, received at `nowMs`. */
  add(progress: PullProgress, nowMs: number): void {
    if (progress.digest === undefined || progress.total === undefined) {
      if (progress.status && this.#steps.at(-1) !== progress.status) this.#steps.push(progress.status);
      return;
    }
    let layer = this.#layers.get(progress.digest);
    if (!layer) {
      const state = { status: progress.status, total: progress.total, completed: 0, rate: 0 };
      layer = { state, samples: [] };
      this.#layers.set(progress.digest, layer);
    }
    const completed = Math.min(progress.completed ?? 0, progress.total);
    layer.state.total = progress.total;
    layer.state.completed = completed;
    layer.samples.push({ at: nowMs, completed });
    while (layer.samples.length > 2 && nowMs - layer.samples[0].at > RATE_WINDOW_MS) layer.samples.shift();
    const first = layer.samples[0];
    const span = nowMs - first.at;
    if (span >= MIN_RATE_SPAN_MS) layer.state.rate = ((completed - first.completed) * 1000) / span;
    if (completed >= progress.total) layer.state.rate = 0;
  }

  state(): PullState {
    const layers = [...this.#layers.values()].map(({ state }) => ({ ...state }));
    const active = layers.find((layer) => layer.completed < layer.total);
    return {
      steps: [...this.#steps],
      layers,
      total: layers.reduce((sum, layer) => sum + layer.total, 0),
      completed: layers.reduce((sum, layer) => sum + layer.completed, 0),
      rate: active?.rate ?? 0,
    };
  }
}
