import type { CompactionRecord } from '../conversation/compaction-record.js';
import type { Message, WireMessage } from '../conversation/message.js';
import { estimateMessagesTokens, estimateTokens } from '../conversation/token-estimate.js';
import type { Budgets } from './budgets.js';
import { buildModelView, systemHead } from './model-view.js';
import { renderToolLog } from './summary.js';

/** The parts of the context window `/context` shows. */
export type ContextRowLabel =
  | 'system'
  | 'instructions'
  | 'pinned notes'
  | 'summary'
  | 'tool entries'
  | 'tool definitions'
  | 'verbatim tail'
  | 'reserve'
  | 'free';

/** One part of the window: its estimated tokens and share of `numCtx` (one decimal). */
export interface ContextBreakdownRow {
  label: ContextRowLabel;
  tokens: number;
  percent: number;
}

/** Where the context window goes, for `/context`. */
export interface ContextBreakdown {
  rows: ContextBreakdownRow[];
  numCtx: number;
  /** The tool definitions' row split by where they come from (`built-in`, `MCP <server>`, `find_tools`). */
  toolDefinitionSources: { source: string; tokens: number }[];
}

/**
 * Splits the next request into system prompt, instruction files (a row only when there are any),
 * summary narrative, tool entries, tool definitions and verbatim tail, plus the reserve and what
 * is left free. All but the last two add up to `used` (the figure the meter shows) when given,
 * else to the estimate of the request: the tail is what `used` leaves once the parts estimated on
 * their own are paid.
 */
export function contextBreakdown(input: {
  system?: string;
  /** The instruction files' section (instructions-section.ts). */
  instructions?: string;
  /** The pinned notes' section (pins.ts). */
  pins?: string;
  record?: CompactionRecord;
  transcript: readonly Message[];
  /** The next request's messages as planned (chat/ passes its plan's); built from the above when absent. */
  view?: readonly WireMessage[];
  budgets: Budgets;
  charsPerToken: number;
  toolContent?: (message: Message) => string;
  /** Estimated tokens of the tool definitions every request carries. */
  toolDefinitionTokens?: number;
  /** The same, by source. */
  toolDefinitionSources?: { source: string; tokens: number }[];
  /** The app's one figure for the next request (server count plus estimate). */
  used?: number;
}): ContextBreakdown {
  const { system, instructions, pins, record, transcript, budgets, charsPerToken, toolContent } = input;
  const toolDefinitions = input.toolDefinitionTokens ?? 0;
  const view = input.view ?? buildModelView({ system, instructions, pins, record, transcript, toolContent });
  const total = input.used ?? toolDefinitions + estimateMessagesTokens(view, charsPerToken);
  const head = view[0]?.role === 'system' ? estimateMessagesTokens([view[0]], charsPerToken) : 0;
  // The same system message without the summary: stray system messages stay in the system row.
  const strays = transcript
    .slice(record?.upto ?? 0)
    .filter((m) => m.role === 'system')
    .map((m) => m.content);
  const headWithout = (parts: { instructions?: string; pins?: string; record?: CompactionRecord }) =>
    estimateMessagesTokens(systemHead({ system, ...parts }, strays), charsPerToken);
  const withPins = record ? headWithout({ instructions, pins }) : head;
  const withInstructions = pins ? headWithout({ instructions }) : withPins;
  // The instructions' and pins' rows are what they add to the system message (their joins included).
  const plainHead = instructions ? headWithout({}) : withInstructions;
  const instructionTokens = Math.max(0, withInstructions - plainHead);
  const pinTokens = Math.max(0, withPins - withInstructions);
  const summaryTotal = Math.max(0, head - withPins);
  const toolTokens = record
    ? Math.min(summaryTotal, estimateTokens(renderToolLog(record.toolEntries), charsPerToken))
    : 0;
  const numCtx = budgets.numCtx;
  const row = (label: ContextRowLabel, tokens: number): ContextBreakdownRow => ({
    label,
    tokens,
    percent: numCtx > 0 ? Math.round((tokens / numCtx) * 1000) / 10 : 0,
  });
  // The server counted less than the system message was estimated at: its parts are scaled down
  // to what is left beside the tool definitions (the tail is then empty), so the rows still add
  // up to what the meter shows.
  const [systemRow, instructionsRow, pinsRow, summaryRow, entriesRow] = fitParts(
    [plainHead, instructionTokens, pinTokens, summaryTotal - toolTokens, toolTokens],
    Math.max(0, total - toolDefinitions),
  );
  return {
    numCtx,
    toolDefinitionSources: input.toolDefinitionSources ?? [],
    rows: [
      row('system', systemRow),
      ...(instructions ? [row('instructions', instructionsRow)] : []),
      ...(pins ? [row('pinned notes', pinsRow)] : []),
      row('summary', summaryRow),
      row('tool entries', entriesRow),
      row('tool definitions', toolDefinitions),
      row('verbatim tail', Math.max(0, total - head - toolDefinitions)),
      row('reserve', budgets.reserve),
      row('free', Math.max(0, numCtx - total - budgets.reserve)),
    ],
  };
}

/** `parts` as they are when they fit in `total`; else scaled down to add up to it exactly. */
function fitParts(parts: readonly number[], total: number): number[] {
  const sum = parts.reduce((a, b) => a + b, 0);
  if (sum <= total) return [...parts];
  const scaled = parts.map((part) => Math.floor((part * total) / sum));
  // What the floors lost goes to the largest part.
  const largest = scaled.indexOf(Math.max(...scaled));
  scaled[largest] += total - scaled.reduce((a, b) => a + b, 0);
  return scaled;
}
