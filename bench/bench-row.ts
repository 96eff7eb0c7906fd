/** One measured figure of a benchmark, as `npm run bench` prints it. */
export interface BenchRow {
  /** What was measured, e.g. "plan+prompt+assembly, 10,000 messages". */
  name: string;
  value: number;
  /** e.g. "ms", "MB/s", "tokens/s", "×". */
  unit: string;
  /** The goal, human-readable, e.g. "≤ 20 ms". */
  target?: string;
  /** Whether `value` meets the target (undefined when there is none). */
  pass?: boolean;
  /** When `value` is a median: the least and the most of the runs, and how many there were. */
  spread?: Spread;
}

/** The least and the most of a figure's runs (its `value` being their median), and their number. */
export interface Spread {
  min: number;
  max: number;
  runs: number;
}

/** A benchmark suite: runs its measurements and returns the figures. */
export type BenchSuite = () => Promise<BenchRow[]>;
