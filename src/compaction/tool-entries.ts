import type { Message } from '../conversation/message.js';
import { capText, collapseWhitespace, oneLine } from '../text/shorten.js';

/** Share of the summary budget the tool-call log may take; the narrative gets the rest. */
export const TOOL_ENTRIES_SHARE = 0.3;

/** Longest single tool entry: a one-line summary is meant to be short; a runaway one is cut. */
export const MAX_TOOL_ENTRY_CHARS = 240;

/** How many tools a merged count line names; the rest are counted as `other`. */
const MAX_NAMED_TOOLS = 6;

// `… N earlier tool calls (a ×2, b ×1)`; … and × escaped here and below: the bundles stay ASCII (scripts/build.mjs).
const COUNT_LINE = /^\u2026 (\d+) earlier tool calls?(?: \((.*)\))?$/;

/** How a folded entry says how many calls it stands for: `read_file: read a.ts (×3)`. */
const FOLD_SUFFIX = / \(\xD7(\d+)\)$/;

/**
 * The deterministic line for one tool result: its stored `tool_summary` (prefixed with the tool's
 * name unless it already starts with it, so merged count lines can name tools), else
 * `<tool> was called.`.
 */
export function toolEntryLine(message: Message): string {
  const name = message.tool_name?.trim() || 'unknown_tool';
  const summary = collapseWhitespace(message.tool_summary ?? '');
  if (!summary) return `${name} was called.`;
  return capText(summary.startsWith(name) ? summary : `${name}: ${summary}`, MAX_TOOL_ENTRY_CHARS);
}

/**
 * The deterministic line for a `!command` the user ran, e.g. `shell: git status run by the user
 * (exit 0)`: its last parenthesis is how it ended, so repeated runs of one command fold together.
 */
export function shellEntryLine(message: Message): string | undefined {
  if (message.role !== 'user' || !message.shell) return undefined;
  const { command, end } = message.shell;
  // The command is cut rather than the whole line, so how it ended stays.
  return capText(`shell: ${oneLine(command, 120)} run by the user (${end})`, MAX_TOOL_ENTRY_CHARS);
}

/** One line per tool result and per `!command` run of the slice, in order. */
export function collectToolEntries(slice: readonly Message[]): string[] {
  const entries: string[] = [];
  for (const message of slice) {
    if (message.role === 'tool') entries.push(toolEntryLine(message));
    const shell = shellEntryLine(message);
    if (shell) entries.push(shell);
  }
  return entries;
}

/** How one entry is rendered in the summary section (summary.ts), and so what it costs. */
export function toolEntryBullet(entry: string): string {
  return `\n- ${entry}`;
}

/**
 * Carries entries over in order (previous, then added), exactly while their bullets fit
 * `maxTokens`. Past that, folds the way a reader would: first repeated identical lines into one
 * (`… (×3)`, at the newest one's place), then repeated calls on one thing — the same line but its
 * last parenthesis, e.g. reads of one file with different ranges (`read_file: read a.ts (×4)`) —
 * and only then merges the oldest into one count line, e.g.
 * `… 37 earlier tool calls (read_file ×20, run_command ×17)`, as few as needed. An earlier count
 * line is folded into the new one. Deterministic; never exceeds `maxTokens`.
 */
export function mergeToolEntries(
  previous: readonly string[],
  added: readonly string[],
  maxTokens: number,
  estimate: (text: string) => number,
): string[] {
  const cost = (entry: string) => estimate(toolEntryBullet(entry));
  const total = (entries: readonly string[]) => entries.reduce((sum, entry) => sum + cost(entry), 0);
  let all = [...previous, ...added];
  if (total(all) <= maxTokens) return all;
  for (const key of [exactKey, subjectKey]) {
    all = foldRepeats(all, key);
    if (total(all) <= maxTokens) return all;
  }
  let rest = total(all);
  const counts = new Map<string, number>();
  let merged = 0;
  for (let i = 0; i < all.length; i++) {
    merged += absorb(all[i], counts);
    rest -= cost(all[i]);
    const line = countLine(merged, counts);
    if (cost(line) + rest <= maxTokens) return [line, ...all.slice(i + 1)];
  }
  // Even one line naming the tools is too long for the budget: say only how many.
  const bare = countLine(merged, undefined);
  return cost(bare) <= maxTokens ? [bare] : [];
}

/** An entry without its fold count: identical calls share it. */
function exactKey(entry: string): string {
  return entry.replace(FOLD_SUFFIX, '');
}

/** An entry without its fold count and its last parenthesis (ranges, sizes, exit codes): calls on one thing share it. */
function subjectKey(entry: string): string {
  return exactKey(entry).replace(/\s*\([^()]*\)$/, '');
}

/**
 * Folds entries sharing a key into one `<key> (×n)` at the place of the newest of them; an entry
 * alone keeps its exact text. Count lines are left as they are.
 */
function foldRepeats(entries: readonly string[], key: (entry: string) => string): string[] {
  const calls = new Map<string, number>();
  const groups = new Map<string, number>();
  for (const entry of entries) {
    if (COUNT_LINE.test(entry)) continue;
    const k = key(entry);
    calls.set(k, (calls.get(k) ?? 0) + callsIn(entry));
    groups.set(k, (groups.get(k) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  const folded: string[] = [];
  for (const entry of entries) {
    if (COUNT_LINE.test(entry)) {
      folded.push(entry);
      continue;
    }
    const k = key(entry);
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    if (groups.get(k) === 1) folded.push(entry);
    else if (n === groups.get(k)) folded.push(`${k} (×${calls.get(k)})`);
  }
  return folded;
}

/** How many calls an entry stands for: its fold count, else one. */
function callsIn(entry: string): number {
  const fold = FOLD_SUFFIX.exec(entry);
  return fold ? Number(fold[1]) : 1;
}

/** Adds one entry (or an earlier count line) to the per-tool counts; returns how many calls it stands for. */
function absorb(entry: string, counts: Map<string, number>): number {
  const match = COUNT_LINE.exec(entry);
  if (!match) {
    const name = /^[^\s:]+/.exec(entry)?.[0] ?? 'other';
    const n = callsIn(entry);
    counts.set(name, (counts.get(name) ?? 0) + n);
    return n;
  }
  const total = Number(match[1]);
  let named = 0;
  for (const part of match[2]?.split(', ') ?? []) {
    const tool = /^(.+) \xD7(\d+)$/.exec(part);
    if (!tool) continue;
    counts.set(tool[1], (counts.get(tool[1]) ?? 0) + Number(tool[2]));
    named += Number(tool[2]);
  }
  if (total > named) counts.set('other', (counts.get('other') ?? 0) + total - named);
  return total;
}

function countLine(merged: number, counts: Map<string, number> | undefined): string {
  const head = `… ${merged} earlier tool call${merged === 1 ? '' : 's'}`;
  if (!counts) return head;
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const shown = sorted.slice(0, MAX_NAMED_TOOLS);
  const others = sorted.slice(MAX_NAMED_TOOLS).reduce((sum, [, n]) => sum + n, 0);
  const parts = shown.map(([name, n]) => `${name} ×${n}`);
  if (others) parts.push(`other ×${others}`);
  return `${head} (${parts.join(', ')})`;
}
