/** How a turn ended. */
export type TurnEnd =
  /** The model answered. */
  | 'answered'
  /** Stopped after `tools.max_steps` tool rounds (said as a warning: sending a message goes on). */
  | 'max-steps'
  /** A reply failed, or the server refused the prompt: the reason is on the screen. */
  | 'failed'
  /** The user cancelled the reply (Ctrl+C). */
  | 'cancelled'
  /** The compaction before a request was cancelled: the message waits, unsent, for an empty Enter. */
  | 'held'
  /** The message never went: no model reachable, a file it names refused, or over the window and not sent anyway. */
  | 'not-sent';

/** What a message (or a retry) came to, as a value: one-shot mode reads its exit code from it. */
export interface TurnOutcome {
  end: TurnEnd;
  /** A compaction on the way failed (and said why); the turn may have gone on regardless. */
  compactionFailed: boolean;
  /** A reply came empty, or with lines of its stream that were not JSON (said as a warning). */
  flawedReply?: boolean;
}

/**
 * Whether the turn ended in an error: a reply that failed or came flawed (empty, lines of its
 * stream skipped), a message that never went, or a compaction that failed on the way. A cancel or
 * a held message is the user's doing, not an error.
 */
export function endedInError(outcome: TurnOutcome): boolean {
  return (
    outcome.end === 'failed' ||
    outcome.end === 'not-sent' ||
    outcome.compactionFailed ||
    outcome.flawedReply === true
  );
}
