import { oneLine } from '../text/shorten.js';
import type { ToolOutcome } from './tool.js';

/** Why a call was not run, recorded as `details.skipped` by executeToolCall. */
export type SkipKind =
  | 'declined'
  /** Needed a confirmation nobody could give (one-shot mode without -y). */
  | 'unconfirmed'
  | 'instructed'
  | 'invalid-arguments'
  | 'malformed'
  | 'unknown-tool'
  | 'disabled'
  | 'cancelled'
  | 'closed'
  /** Began to run, then the session was closed: its outcome is unknown. */
  | 'interrupted';

/** A short reason for a failed or skipped call, for summary lines. */
export function failureReason(outcome: ToolOutcome): string {
  const details = outcome.details ?? {};
  switch (details.skipped as SkipKind | undefined) {
    case 'declined':
      return 'declined by the user';
    case 'unconfirmed':
      return 'needs confirmation; -y allows it';
    case 'instructed':
      return `not run, the user said: ${oneLine(String(details.instruction ?? ''), 60)}`;
    case 'invalid-arguments':
      return 'invalid arguments';
    case 'malformed':
      return 'malformed call';
    case 'unknown-tool':
      return 'unknown tool';
    case 'disabled':
      return 'tool disabled';
    case 'cancelled':
      return 'cancelled';
    case 'closed':
      return 'not run: the session was closed';
    case 'interrupted':
      return 'interrupted: its outcome is unknown (it may have run)';
  }
  if (typeof details.error === 'string') return oneLine(details.error, 80);
  return oneLine(outcome.output.split('\n', 1)[0] ?? '', 80) || 'failed';
}

/** How the summary line of a failed (or refused, or declined) call starts. */
export const FAILURE_MARK = '❌';

/** The summary line of a failed call: `❌ <action> (<reason>)`, e.g. `❌ read a.ts (file not found)`. */
export function failureLine(action: string, outcome: ToolOutcome): string {
  return `${FAILURE_MARK} ${action} (${failureReason(outcome)})`;
}

/** A failed outcome: `output` tells the model what went wrong, `error` is the short reason for the summary. */
export function toolFailure(output: string, error: string): ToolOutcome {
  return { ok: false, output, details: { error } };
}
