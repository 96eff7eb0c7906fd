import type { CompactionRecord } from '../conversation/compaction-record.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../conversation/token-estimate.js';
import { isHighSurrogate } from '../text/shorten.js';
import { mergeToolEntries, TOOL_ENTRIES_SHARE, toolEntryBullet } from './tool-entries.js';

/** Opens the summary section folded into the system message. */
export const SUMMARY_HEADER = '[Summary of the earlier conversation: older messages were compacted]';
/** Introduces the deterministic tool-call log inside the section. */
export const TOOL_LOG_HEADER = 'Tool calls made earlier, oldest first:';
/** Closes the summary section. */
export const SUMMARY_FOOTER = '[End of summary. The conversation continues below.]';
/** Appended where a narrative was cut to fit its budget. */
export const TRIM_MARKER = ' […]';

/** What a section is made of: the narrative and the tool entries of a record. */
export type SummaryContent = Pick<CompactionRecord, 'narrative' | 'toolEntries'>;

/**
 * The summary as the model sees it: a clearly delimited section (narrative, then the tool-call
 * log) that the model view appends to the system prompt. The one place defining the format.
 */
export function renderSummarySection({ narrative, toolEntries }: SummaryContent): string {
  return `${SUMMARY_HEADER}\n${narrative}${renderToolLog(toolEntries)}\n${SUMMARY_FOOTER}`;
}

/** How the section joins the system prompt in the system message. */
export const SECTION_SEPARATOR = '\n\n';

/** The tool-call log part of the section ('' without entries). */
export function renderToolLog(toolEntries: readonly string[]): string {
  if (!toolEntries.length) return '';
  return `\n\n${TOOL_LOG_HEADER}${toolEntries.map(toolEntryBullet).join('')}`;
}

/**
 * Tokens the tool entries' bullets may take for a summary budget: their share of what the
 * section frame leaves. Costs are summed per part, an upper bound of the whole (ceil is subadditive).
 */
export function toolEntriesBudget(summaryTokens: number, estimate: (text: string) => number): number {
  return Math.max(
    0,
    Math.floor(TOOL_ENTRIES_SHARE * contentBudget(summaryTokens, estimate)) - toolLogHeaderCost(estimate),
  );
}

/**
 * Builds the section content within the summary budget: tool entries carried over and merged
 * to their share, the narrative cleaned and trimmed to what is left. Counts the system-message
 * overhead and separator too, so the system message grows by at most `summaryTokens`.
 */
export function assembleSummary(input: {
  narrative: string;
  previousEntries: readonly string[];
  addedEntries: readonly string[];
  summaryTokens: number;
  estimate: (text: string) => number;
}): SummaryContent {
  const { estimate, summaryTokens } = input;
  const toolEntries = assembleToolEntries(input.previousEntries, input.addedEntries, summaryTokens, estimate);
  const budget = narrativeBudget(summaryTokens, toolEntries, estimate);
  return { narrative: trimNarrative(cleanNarrative(input.narrative), budget, estimate), toolEntries };
}

/** The tool entries of the next record: previous and added, merged to their share of the budget. */
export function assembleToolEntries(
  previousEntries: readonly string[],
  addedEntries: readonly string[],
  summaryTokens: number,
  estimate: (text: string) => number,
): string[] {
  return mergeToolEntries(
    previousEntries,
    addedEntries,
    toolEntriesBudget(summaryTokens, estimate),
    estimate,
  );
}

/** Tokens the tool entries' bullets may take beside this narrative: all the section has left. */
export function toolLogRoom(
  summaryTokens: number,
  narrative: string,
  estimate: (text: string) => number,
): number {
  return Math.max(
    0,
    contentBudget(summaryTokens, estimate) - estimate(narrative) - toolLogHeaderCost(estimate),
  );
}

/** Tokens left for the narrative once the frame, the join and these tool entries are paid. */
export function narrativeBudget(
  summaryTokens: number,
  toolEntries: readonly string[],
  estimate: (text: string) => number,
): number {
  let toolCost = 0;
  if (toolEntries.length) {
    toolCost = toolLogHeaderCost(estimate);
    for (const entry of toolEntries) toolCost += estimate(toolEntryBullet(entry));
  }
  return contentBudget(summaryTokens, estimate) - toolCost;
}

/**
 * Cuts a narrative to at most `maxTokens` (marker included), at a line or sentence boundary
 * when one lies in the second half of what fits; never larger than its budget.
 */
export function trimNarrative(text: string, maxTokens: number, estimate: (text: string) => number): string {
  if (estimate(text) <= maxTokens) return text;
  if (estimate(TRIM_MARKER) > maxTokens) return '';
  // Largest prefix that fits with the marker (estimate grows with the prefix).
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimate(text.slice(0, mid) + TRIM_MARKER) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  let end = lo;
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  const boundary = lastBoundary(text, end);
  if (boundary >= end / 2) end = boundary;
  const kept = text.slice(0, end).trimEnd();
  return kept ? kept + TRIM_MARKER : '';
}

/** Removes what a summarizer adds around the summary: thinking blocks, surrounding blank space. */
export function cleanNarrative(text: string): string {
  return text
    .replace(/<think>[\s\S]*?<\/think>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Tokens left for narrative + tool log once the frame and the system-message join are paid. */
function contentBudget(summaryTokens: number, estimate: (text: string) => number): number {
  const frame = estimate(`${SUMMARY_HEADER}\n`) + estimate(`\n${SUMMARY_FOOTER}`);
  // Joining the system prompt costs the separator; without one, the section pays the message overhead.
  const join = Math.max(estimate(SECTION_SEPARATOR), MESSAGE_OVERHEAD_TOKENS);
  return summaryTokens - frame - join;
}

function toolLogHeaderCost(estimate: (text: string) => number): number {
  return estimate(`\n\n${TOOL_LOG_HEADER}`);
}

/** Index just after the last line break or sentence end before `end`, or -1. */
function lastBoundary(text: string, end: number): number {
  for (let i = end - 1; i > 0; i--) {
    const c = text[i];
    if (c === '\n' || c === '。' || c === '！' || c === '？') return i + 1;
    if ((c === '.' || c === '!' || c === '?') && i + 1 < end && /\s/.test(text[i + 1])) return i + 1;
  }
  return -1;
}
