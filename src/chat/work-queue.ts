/** Runs tasks one at a time, in order: messages typed while busy wait their turn. */
export class WorkQueue {
  private work: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    /** Told how many tasks wait behind the running one, whenever that changes. */
    private readonly onQueued: (queued: number) => void,
  ) {}

  /** Runs `task` after everything enqueued before it; resolves (or rejects) with it. */
  enqueue(task: () => Promise<void>): Promise<void> {
    this.pending += 1;
    this.onQueued(Math.max(0, this.pending - 1));
    const run = this.work.then(task).finally(() => {
      this.pending -= 1;
      this.onQueued(Math.max(0, this.pending - 1));
    });
    this.work = run.catch(() => undefined);
    return run;
  }

  /** Resolves when every task enqueued so far has finished. */
  idle(): Promise<void> {
    return this.work;
  }
}
