import type { PullLayerState, PullState } from '../chat/state/pull-tracker.js';
import { formatBytes } from '../text/format-bytes.js';

/** Steps `ollama pull` prints after the layers. */
const AFTER_LAYERS = new Set([
  'verifying sha256 digest',
  'writing manifest',
  'removing unused layers',
  'success',
]);

/** The narrowest bar worth drawing; below it the line drops the rate and time, then the bar. */
const MIN_BAR = 10;

/** Line mode prints progress at most this often (a status change is printed at once). */
export const PLAIN_INTERVAL_MS = 1000;

/** `49s`, `1m30s`, `2h5m`: Go's duration style, as `ollama pull` shows the time left. */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60}s`;
  return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
}

/** Whole percent, as `ollama pull` shows it (`%3.0f%%`). */
function percent(completed: number, total: number): string {
  const value = total > 0 ? Math.floor((completed / total) * 100) : 0;
  return `${String(value).padStart(3)}%`;
}

/**
 * One layer in `ollama pull`'s layout, at most `width` columns:
 * `pulling 6a0746a1ec1a:  23% ▕███      ▏ 465 MB/2.0 GB   31 MB/s     49s`. A narrow terminal
 * drops the rate and the time left first, then the bar.
 */
export function pullLayerLine(layer: PullLayerState, width: number): string {
  const done = layer.completed >= layer.total;
  const pre = `${layer.status}: ${percent(layer.completed, layer.total)}`;
  const sizes = done
    ? formatBytes(layer.total).padStart(13)
    : `${formatBytes(layer.completed)}/${formatBytes(layer.total)}`.padStart(13);
  const known = !done && layer.rate > 0;
  const rate = known ? `${formatBytes(Math.round(layer.rate))}/s`.padStart(10) : ' '.repeat(10);
  const left = known
    ? formatTimeLeft((layer.total - layer.completed) / layer.rate).padStart(8)
    : ' '.repeat(8);
  for (const suffix of [`${sizes}${rate}${left}`, sizes]) {
    // pre, " ▕", bar, "▏ ", suffix
    const bar = width - pre.length - 4 - suffix.length;
    if (bar >= MIN_BAR) return `${pre} ▕${barCells(layer, bar)}▏ ${suffix}`.trimEnd();
  }
  const plain = `${pre} ${sizes.trim()}`;
  return plain.length <= width ? plain : `${plain.slice(0, width - 1)}…`;
}

function barCells(layer: PullLayerState, cells: number): string {
  const filled =
    layer.total > 0 ? Math.floor((cells * Math.min(layer.completed, layer.total)) / layer.total) : 0;
  return '█'.repeat(filled) + ' '.repeat(cells - filled);
}

/** The whole pull as `ollama pull` draws it: the manifest step, a bar per layer, the steps after. */
export function pullLines(state: PullState, width: number): string[] {
  const before = state.steps.filter((step) => !AFTER_LAYERS.has(step));
  const after = state.steps.filter((step) => AFTER_LAYERS.has(step));
  return [...before, ...state.layers.map((layer) => pullLayerLine(layer, width)), ...after].map((line) =>
    line.length <= width ? line : `${line.slice(0, width - 1)}…`,
  );
}

/** The pull in one plain line, for line mode: `pulling tiny: 23% of 2.0 GB, 31 MB/s, 49s left`. */
export function pullPlainLine(model: string, state: PullState): string {
  const step = state.steps.at(-1);
  if (state.layers.length === 0 || (step !== undefined && AFTER_LAYERS.has(step)))
    return step ?? `pulling ${model}`;
  const parts = [`${formatBytes(state.completed)} of ${formatBytes(state.total)}`];
  if (state.rate > 0) {
    const active = state.layers.find((layer) => layer.completed < layer.total);
    const remaining = active ? active.total - active.completed : 0;
    parts.push(`${formatBytes(Math.round(state.rate))}/s`, `${formatTimeLeft(remaining / state.rate)} left`);
  }
  return `pulling ${model}: ${percent(state.completed, state.total).trim()} (${parts.join(', ')})`;
}

/** Decides which plain lines line mode prints: a new step at once, progress at most once a second. */
export class PlainPullPacer {
  #lastAt = Number.NEGATIVE_INFINITY;
  #lastStep: string | undefined;
  #lastLine: string | undefined;

  /** The line to print now, or undefined. */
  next(model: string, state: PullState, nowMs: number): string | undefined {
    const step = state.steps.at(-1);
    const stepChanged = step !== this.#lastStep;
    this.#lastStep = step;
    const line = pullPlainLine(model, state);
    if (line === this.#lastLine) return undefined;
    if (!stepChanged && nowMs - this.#lastAt < PLAIN_INTERVAL_MS) return undefined;
    this.#lastAt = nowMs;
    this.#lastLine = line;
    return line;
  }
}
