import type { CompactionRecord, ExactDetail } from '../conversation/compaction-record.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../conversation/token-estimate.js';
import { detailBullet, foldedDetailsLine } from './details.js';
import { mergeToolEntries, TOOL_ENTRIES_SHARE, toolEntryBullet } from './tool-entries.js';

/** Opens the summary section folded into the system message. */
export const SUMMARY_HEADER = '[Summary of the earlier conversation: older messages were compacted]';
/** Introduces the deterministic tool-call log inside the section. */
export const TOOL_LOG_HEADER = 'Tool calls made earlier, oldest first:';
/** Introduces the exact details the narrative left out, kept verbatim inside the section. */
export const DETAILS_HEADER = 'Exact details from the earlier conversation, verbatim (oldest first):';
/** Closes the summary section. */
export const SUMMARY_FOOTER = '[End of summary. The conversation continues below.]';

/** What a section is made of: the narrative, the exact details list and the tool entries of a record. */
export type SummaryContent = Pick<
  CompactionRecord,
  'narrative' | 'toolEntries' | 'details' | 'detailsFolded'
>;

/**
 * The summary as the model sees it: a clearly delimited section (narrative, then the exact
 * details it left out, then the tool-call log) that the model view appends to the system prompt.
 * The one place defining the format.
 */
export function renderSummarySection(content: SummaryContent): string {
  const { narrative, toolEntries } = content;
  return `${SUMMARY_HEADER}\n${narrative}${renderDetailsList(content)}${renderToolLog(toolEntries)}\n${SUMMARY_FOOTER}`;
}

/** The exact-details part of the section ('' without details and nothing folded). */
export function renderDetailsList({
  details = [],
  detailsFolded = 0,
}: Omit<SummaryContent, 'narrative' | 'toolEntries'>): string {
  if (!details.length && !detailsFolded) return '';
  const folded = detailsFolded ? foldedDetailsLine(detailsFolded) : '';
  return `\n\n${DETAILS_HEADER}${folded}${details.map(detailBullet).join('')}`;
}

/**
 * Tokens the details part takes: summed per part like the tool log, an upper bound of the
 * whole (0 when it is empty).
 */
export function detailsListCost(
  content: Omit<SummaryContent, 'narrative' | 'toolEntries'>,
  estimate: (text: string) => number,
): number {
  const { details = [], detailsFolded = 0 } = content;
  if (!details.length && !detailsFolded) return 0;
  let cost = detailsFrameCost(detailsFolded, estimate);
  for (const detail of details) cost += estimate(detailBullet(detail));
  return cost;
}

/**
 * The details list that fits `room` tokens (its header and folded line included): those of pasted
 * blocks folded first (a log's numbers must not push out what the user said), then the oldest,
 * counted into `foldedBefore`; the rest kept in their order. `room` must hold at least the frame
 * with every detail folded (`detailsFrameCost`).
 */
export function fitDetailsList(
  details: readonly ExactDetail[],
  foldedBefore: number,
  room: number,
  estimate: (text: string) => number,
): { details: ExactDetail[]; foldedTotal: number } {
  const costs = details.map((d) => estimate(detailBullet(d)));
  let total = costs.reduce((sum, c) => sum + c, 0);
  const order = [...details.keys()].sort(
    (a, b) => Number(Boolean(details[b].pasted)) - Number(Boolean(details[a].pasted)) || a - b,
  );
  const folded = new Set<number>();
  for (const index of order) {
    if (detailsFrameCost(foldedBefore + folded.size, estimate) + total <= room) break;
    folded.add(index);
    total -= costs[index];
  }
  return {
    details: details.filter((_, i) => !folded.has(i)),
    foldedTotal: foldedBefore + folded.size,
  };
}

/** Tokens of the details list's header and folded line, `folded` details folded (0: no line). */
export function detailsFrameCost(folded: number, estimate: (text: string) => number): number {
  return estimate(`\n\n${DETAILS_HEADER}`) + (folded ? estimate(foldedDetailsLine(folded)) : 0);
}

/**
 * Tokens the details list is sure of for a summary budget (`compaction.details_share` of what the
 * section frame leaves), its header included: a longer narrative is condensed to leave it them.
 * The list also takes whatever room the narrative leaves past it.
 */
export function detailsBudget(
  summaryTokens: number,
  share: number,
  estimate: (text: string) => number,
): number {
  return Math.max(0, Math.floor(share * contentBudget(summaryTokens, estimate)));
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

/**
 * Tokens the tool entries' bullets may take beside this narrative (and the details list, `extra`
 * tokens): all the section has left.
 */
export function toolLogRoom(
  summaryTokens: number,
  narrative: string,
  estimate: (text: string) => number,
  extra = 0,
): number {
  return Math.max(
    0,
    contentBudget(summaryTokens, estimate) - estimate(narrative) - extra - toolLogHeaderCost(estimate),
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
