/** How long after work ends a Ctrl+C still counts as cancelling it. */
export const LATE_CANCEL_MS = 1000;

/**
 * The cancellable work in progress (a reply, a tool run or a compaction), for Ctrl+C and /exit.
 * Work may nest (a compaction a turn runs before its next request): Ctrl+C stops all of it.
 */
export class AbortSlot {
  private readonly running: AbortController[] = [];
  /** When the last work ended (all of it), for a Ctrl+C that comes just after. */
  private endedAt = Number.NEGATIVE_INFINITY;
  /** When the outermost work in progress began. */
  private startedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = Date.now) {}

  /** Starts cancellable work: Ctrl+C now aborts the returned controller. */
  begin(): AbortController {
    const controller = new AbortController();
    if (!this.running.length) this.startedAt = this.now();
    this.running.push(controller);
    return controller;
  }

  /** The innermost work has ended; the work around it (if any) can still be cancelled. */
  end(): void {
    this.running.pop();
    // Only work that ran a while can have held a key back: a quick step (connecting as the chat
    // opens) leaves the next Ctrl+C to mean what it says.
    if (!this.running.length && this.now() - this.startedAt >= LATE_CANCEL_MS) this.endedAt = this.now();
  }

  /**
   * Aborts the work in progress, the innermost and what runs it; false when there is none. A
   * Ctrl+C handled within LATE_CANCEL_MS of the work's end was pressed while it ran (a long
   * synchronous step, like the end of a 4 M-character reply, holds keys back): it counts as a
   * cancel, never toward quitting.
   */
  cancel(): boolean {
    if (!this.running.length) return this.now() - this.endedAt < LATE_CANCEL_MS;
    for (const controller of this.running) controller.abort();
    return true;
  }
}
