/**
 * A token count for people: `950`, `1.2k`, `6.1k`, `8k`, `32k`, `1.1M`. One decimal below 10,
 * none above. Multiples of 4096 (the sizes `num_ctx` comes in) use binary thousands, so windows
 * read as they are named (8192 → `8k`, 131072 → `128k`); below 10k this only affects 4096 and 8192.
 */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return '?';
  if (n < 0) return `-${formatTokens(-n)}`;
  const whole = Math.round(n);
  if (whole < 1000) return String(whole);
  if (whole < 1024 * 1024 && whole % 4096 === 0) return `${whole / 1024}k`;
  const thousands = scaled(whole / 1000);
  if (Number(thousands) < 1000) return `${thousands}k`;
  return `${scaled(whole / 1_000_000)}M`;
}

/** One decimal below 10 (dropping `.0`), whole numbers above. */
function scaled(x: number): string {
  const rounded = x < 9.95 ? Math.round(x * 10) / 10 : Math.round(x);
  return String(rounded);
}

/**
 * What a compaction did to the window, `6.1k → 1.2k tokens (75% → 15% of 8k)`: the live report
 * and a resumed session's replay say it alike (the percentages only where the window is known; 0% of a window of 0).
 */
export function formatTokensChange(before: number, after: number, numCtx: number | undefined): string {
  const change = `${formatTokens(before)} → ${formatTokens(after)} tokens`;
  if (numCtx === undefined) return change;
  const percent = (tokens: number) => `${numCtx > 0 ? Math.round((tokens / numCtx) * 100) : 0}%`;
  return `${change} (${percent(before)} → ${percent(after)} of ${formatTokens(numCtx)})`;
}
