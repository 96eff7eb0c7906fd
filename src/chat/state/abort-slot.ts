/**
 * The cancellable work in progress (a reply, a tool run or a compaction), for Ctrl+C and /exit.
 * Work may nest (a compaction a turn runs before its next request): Ctrl+C stops all of it.
 */
export class AbortSlot {
  private readonly running: AbortController[] = [];

  /** Starts cancellable work: Ctrl+C now aborts the returned controller. */
  begin(): AbortController {
    const controller = new AbortController();
    this.running.push(controller);
    return controller;
  }

  /** The innermost work has ended; the work around it (if any) can still be cancelled. */
  end(): void {
    this.running.pop();
  }

  /** Aborts the work in progress, the innermost and what runs it; false when there is none. */
  cancel(): boolean {
    if (!this.running.length) return false;
    for (const controller of this.running) controller.abort();
    return true;
  }
}
