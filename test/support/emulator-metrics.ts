/** Prompt processing runs this many times faster than generation, roughly as on real hardware. */
const PROMPT_SPEEDUP = 10;

/** Nominal prompt speed when generation is "infinitely" fast, so durations stay non-zero. */
const FAST_PROMPT_TOKENS_PER_SECOND = 1_000_000;

/** When a reply's phases happened, in performance.now() milliseconds. */
export interface ReplyTiming {
  /** The request arrived. */
  startedAt: number;
  /** Headers and the first byte were about to go out (after any load delay). */
  firstByteAt: number;
  /** The last chunk was written. */
  finishedAt: number;
}

/** The counts a done line reports. */
export interface ReplyCounts {
  promptEvalCount: number;
  /** Of those, the tokens taken from the runner's cache (not evaluated: they cost no prompt time). */
  promptCachedCount?: number;
  evalCount: number;
  tokensPerSecond: number;
}

/** Ollama's done-line metrics in nanoseconds, consistent with the speed and never zero. */
export function doneMetrics(timing: ReplyTiming, counts: ReplyCounts) {
  const { promptEvalCount, evalCount, tokensPerSecond: tps } = counts;
  const cached = counts.promptCachedCount ?? 0;
  const ns = (ms: number) => Math.max(1, Math.round(ms * 1e6));
  const load = ns(timing.firstByteAt - timing.startedAt);
  const promptTps = Number.isFinite(tps) ? tps * PROMPT_SPEEDUP : FAST_PROMPT_TOKENS_PER_SECOND;
  const promptEval = Math.max(1, Math.round(((promptEvalCount - cached) / promptTps) * 1e9));
  const evalDuration = Number.isFinite(tps)
    ? Math.max(1, Math.round((evalCount / tps) * 1e9))
    : ns(timing.finishedAt - timing.firstByteAt);
  const measuredTotal = ns(timing.finishedAt - timing.startedAt);
  return {
    total_duration: Math.max(measuredTotal, load + promptEval + evalDuration),
    load_duration: load,
    prompt_eval_count: promptEvalCount,
    prompt_eval_cached_count: cached,
    prompt_eval_duration: promptEval,
    eval_count: evalCount,
    eval_duration: evalDuration,
  };
}
