import { oneLine } from '../text/shorten.js';
import type { ToolRegistry } from './registry.js';
import type { ToolOutcome } from './tool.js';

/** Longest summary line kept; a template that rambles is cut, not trusted. */
const MAX_SUMMARY_CHARS = 200;

/**
 * The deterministic one-line summary of a tool call: the tool's own template, or
 * `<name> was called.` when the tool is unknown, its template throws or yields nothing.
 */
export function toolSummaryLine(
  registry: Pick<ToolRegistry, 'get'>,
  name: string,
  args: Record<string, unknown>,
  outcome: ToolOutcome,
): string {
  const fallback = `${name} was called.`;
  const tool = registry.get(name);
  if (!tool) return fallback;
  try {
    const line = tool.summaryLine(args, outcome);
    return typeof line === 'string' && line.trim() !== '' ? oneLine(line, MAX_SUMMARY_CHARS) : fallback;
  } catch {
    return fallback;
  }
}
