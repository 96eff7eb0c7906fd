/** Stands where words were cut out of a narrative. */
export const CUT_MARKER = '…';

/** A narrative cut to its budget: what is kept and what was removed (for the record and the report). */
export interface NarrativeCut {
  kept: string;
  /** The words removed, in order, runs joined by ` … `; '' when nothing was cut. */
  removed: string;
}

/**
 * Whether a word carries something a summary exists to keep exactly: a number, a path, an id,
 * a name — any capital letter (`2031-04-01`, `src/a.ts`, `FACT-x`, `user@host`, `(Ada)`, `camelCase`).
 */
export function isExactWord(word: string): boolean {
  return /\d|[/\\_@#=]|\w[.:-]\w|[A-Z]/.test(word);
}

/**
 * The last resort when a summary stays over its budget: cuts words until it fits, where the least
 * is lost — first plain words (oldest first), keeping the names, numbers, paths and ids the
 * rules ask to keep exactly; only then those (oldest first). Never cuts the end silently: the
 * caller reports `removed`. Each run of removed words is replaced by one `…`.
 */
export function cutNarrative(
  text: string,
  maxTokens: number,
  estimate: (text: string) => number,
): NarrativeCut {
  if (estimate(text) <= maxTokens) return { kept: text, removed: '' };
  // Split with a capture group: words at even indices ('' at an end that is whitespace), breaks at odd.
  const parts = text.split(/(\s+)/);
  const plain: number[] = [];
  const exact: number[] = [];
  for (let i = 0; i < parts.length; i += 2) if (parts[i]) (isExactWord(parts[i]) ? exact : plain).push(i);
  const order = plain.concat(exact);
  // A flag per part, not a Set: every render reads one per word, and a cut renders 15–20 times.
  const dropped = new Uint8Array(parts.length);
  const render = () => renderKept(parts, dropped);
  // Drop in batches sized by the excess, then one by one: exact, and far fewer renders than words.
  let next = 0;
  while (next < order.length) {
    const excess = estimate(render()) - maxTokens;
    if (excess <= 0) break;
    const batch = Math.max(1, Math.floor(excess / 4));
    for (let k = 0; k < batch && next < order.length; k++) dropped[order[next++]] = 1;
  }
  // The batches may overshoot: put back the last words dropped while the text still fits.
  while (next > 0) {
    const last = order[next - 1];
    dropped[last] = 0;
    if (estimate(render()) > maxTokens) {
      dropped[last] = 1;
      break;
    }
    next--;
  }
  // What is left fits (or every word is gone): a lone marker is not a summary, so then nothing is kept.
  return { kept: next < order.length ? render() : '', removed: renderRemoved(parts, dropped) };
}

/** The text without the dropped words, each run of them replaced by one marker. */
function renderKept(parts: readonly string[], dropped: Uint8Array): string {
  let out = '';
  let inRun = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (i % 2) {
      if (!inRun) out += part;
    } else if (dropped[i]) {
      if (!inRun) out += CUT_MARKER;
      inRun = true;
    } else if (part) {
      // After a cut run, the break that stood before this word (a line break stays one).
      if (inRun) out += parts[i - 1];
      inRun = false;
      out += part;
    }
  }
  return out.trim();
}

/** The dropped words in order, runs joined by ` … `. */
function renderRemoved(parts: readonly string[], dropped: Uint8Array): string {
  const runs: string[][] = [];
  let run: string[] | undefined;
  for (let i = 0; i < parts.length; i += 2) {
    if (!dropped[i]) {
      if (parts[i]) run = undefined;
      continue;
    }
    if (!run) {
      run = [];
      runs.push(run);
    }
    run.push(parts[i]);
  }
  return runs.map((r) => r.join(' ')).join(` ${CUT_MARKER} `);
}
