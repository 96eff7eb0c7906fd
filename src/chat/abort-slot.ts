/** The cancellable work in progress (a reply, a tool run or a compaction), for Ctrl+C and /exit. */
export class AbortSlot {
  private current: AbortController | undefined;

  /** Starts cancellable work: Ctrl+C now aborts the returned controller. */
  begin(): AbortController {
    this.current = new AbortController();
    return this.current;
  }

  /** The work has ended; nothing is left to cancel. */
  end(): void {
    this.current = undefined;
  }

  /** Aborts the work in progress; false when there is none. */
  cancel(): boolean {
    if (!this.current) return false;
    this.current.abort();
    return true;
  }
}
