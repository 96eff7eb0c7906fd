/** One configured budget: a share of the window with a floor (`compaction.<name>` in the config). */
export interface BudgetSpec {
  ratio: number;
  min_tokens: number;
}

/** The configured budgets, as they appear under `compaction:`. */
export interface BudgetSpecs {
  reserve: BudgetSpec;
  keep_recent: BudgetSpec;
  summary: BudgetSpec;
}

/** Token budgets resolved for one context window. */
export interface Budgets {
  /** Head-room kept free for the next user message and the reply. */
  reserve: number;
  /** About how many tokens of the newest turns stay verbatim. */
  keepRecent: number;
  /** Hard cap of the summary section (and the summarizer's `num_predict`). */
  summary: number;
  numCtx: number;
  /** The three did not fit and were scaled down (the app tells the user once). */
  scaled: boolean;
}

/**
 * Share of the window left outside the three budgets for the system prompt when they have to
 * be scaled. Without it, system + summary + tail + reserve could exceed the window right after
 * a compaction, and the next one would be due at once.
 */
export const SYSTEM_PROMPT_ROOM_RATIO = 0.1;

/**
 * Resolves each budget as `floor(max(ratio × numCtx, min_tokens))`. When reserve + keepRecent +
 * summary exceed the window less `SYSTEM_PROMPT_ROOM_RATIO` of it and less `fixedTokens` (what
 * every request carries besides its messages: the tool definitions), all three are scaled down
 * proportionally to fit there and `scaled` is set.
 */
export function resolveBudgets(numCtx: number, specs: BudgetSpecs, fixedTokens = 0): Budgets {
  if (!Number.isFinite(numCtx) || numCtx <= 0)
    throw new RangeError(`num_ctx must be positive, got ${numCtx}`);
  const raw = {
    reserve: resolve(numCtx, specs.reserve),
    keepRecent: resolve(numCtx, specs.keep_recent),
    summary: resolve(numCtx, specs.summary),
  };
  const total = raw.reserve + raw.keepRecent + raw.summary;
  const available = Math.max(0, Math.floor(numCtx * (1 - SYSTEM_PROMPT_ROOM_RATIO)) - fixedTokens);
  if (total <= available) return { ...raw, numCtx, scaled: false };
  const factor = available / total;
  return {
    reserve: Math.floor(raw.reserve * factor),
    keepRecent: Math.floor(raw.keepRecent * factor),
    summary: Math.floor(raw.summary * factor),
    numCtx,
    scaled: true,
  };
}

function resolve(numCtx: number, spec: BudgetSpec): number {
  return Math.floor(Math.max(spec.ratio * numCtx, spec.min_tokens));
}

/**
 * The least room the three budgets may be scaled down to: below it a summary, the newest turn
 * and the reply have no room left to work in.
 */
export const MIN_WORKING_TOKENS = 256;

/**
 * The smallest `num_ctx` ochat can work in: what every request carries (the tool definitions,
 * `fixedTokens`, and the system message, `systemTokens`) plus `MIN_WORKING_TOKENS`, with the
 * share `resolveBudgets` keeps for the system prompt.
 */
export function smallestNumCtx(fixedTokens: number, systemTokens: number): number {
  let numCtx = Math.max(
    Math.ceil((fixedTokens + MIN_WORKING_TOKENS) / (1 - SYSTEM_PROMPT_ROOM_RATIO)),
    fixedTokens + systemTokens + MIN_WORKING_TOKENS,
  );
  while (Math.floor(numCtx * (1 - SYSTEM_PROMPT_ROOM_RATIO)) - fixedTokens < MIN_WORKING_TOKENS) numCtx++;
  return numCtx;
}
