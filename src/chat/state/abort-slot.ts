import { whenLoopFree } from '../../async/when-loop-free.js';

/**
 * How long after the screen could show that work ended a Ctrl+C still counts as cancelling it: no
 * one reacts to a frame faster, so the key was meant for the work the screen still showed.
 */
export const LATE_CANCEL_MS = 500;

/** Work shorter than this (connecting as the chat opens) was not seen running: a Ctrl+C after it means what it says. */
export const SEEN_WORK_MS = 1000;

/**
 * The cancellable work in progress (a reply, a tool run or a compaction), for Ctrl+C and /exit.
 * Work may nest (a compaction a turn runs before its next request): Ctrl+C stops all of it.
 */
export class AbortSlot {
  private readonly running: AbortController[] = [];
  /**
   * When the loop was free again after the last work ended (all of it), for a Ctrl+C that comes
   * just after; +Infinity until then (the work's last steps and the frame showing its end run).
   */
  private freeAt = Number.NEGATIVE_INFINITY;
  /** When the outermost work in progress began. */
  private startedAt = Number.NEGATIVE_INFINITY;
  private stopWaiting: (() => void) | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly loopFree: (then: () => void) => () => void = whenLoopFree,
  ) {}

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
    if (this.running.length || this.now() - this.startedAt < SEEN_WORK_MS) return;
    // Keys pressed while the last steps run (the end of a 4 M-character reply, its frame) are read
    // only after them: the window starts when the loop is free, not when the work returned.
    this.freeAt = Number.POSITIVE_INFINITY;
    this.stopWaiting?.();
    this.stopWaiting = this.loopFree(() => {
      this.stopWaiting = undefined;
      this.freeAt = this.now();
    });
  }

  /**
   * Aborts the work in progress, the innermost and what runs it; false when there is none. A
   * Ctrl+C read before the loop was free after the work ended, or within LATE_CANCEL_MS of that,
   * was pressed while the screen showed the work: it counts as a cancel, never toward quitting.
   */
  cancel(): boolean {
    if (!this.running.length) return this.now() - this.freeAt < LATE_CANCEL_MS;
    for (const controller of this.running) controller.abort();
    return true;
  }
}
