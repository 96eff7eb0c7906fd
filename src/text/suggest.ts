/**
 * Edit distance between two strings (optimal string alignment: insertions, deletions,
 * substitutions and swaps of adjacent characters each cost 1).
 */
export function editDistance(a: string, b: string): number {
  // Three rolling rows: the swap rule looks two rows back.
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, beforePrevious[j - 2] + 1);
      }
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length];
}

/** Case, `_`, `-` and spaces do not tell keys apart to a human: `numCtx`, `num-ctx` mean `num_ctx`. */
function normalize(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/**
 * The candidate the user most likely meant by `name` (a mistyped config key, option or
 * command), or undefined when none is close enough to be worth suggesting.
 * Near misses by edit distance win; otherwise a candidate containing `name` (`ctx` → `num_ctx`).
 */
export function suggest(name: string, candidates: readonly string[]): string | undefined {
  const wanted = normalize(name);
  if (wanted === '') return undefined;
  // Allow about one typo per three characters, at most three.
  const tolerance = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, normalize(candidate));
    if (distance <= tolerance && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined || wanted.length < 3) return best;
  const containing = candidates.filter((candidate) => normalize(candidate).includes(wanted));
  return containing.sort((x, y) => x.length - y.length)[0];
}
