/** Something the user submitted that waits behind the running task. */
export interface QueuedInput {
  readonly id: number;
  /** What the user typed (shown dimmed under the live reply); undefined for work with no text (a retry). */
  readonly text: string | undefined;
}

interface Waiting extends QueuedInput {
  task: () => Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Runs tasks one at a time, in order: messages typed while busy wait their turn, visible (through
 * `onChange`) and removable (`takeBack`) until their turn comes.
 */
export class WorkQueue {
  private waiting: Waiting[] = [];
  private running = false;
  private nextId = 1;
  private idleWaiters: (() => void)[] = [];

  constructor(
    /** Told what waits behind the running task, whenever that changes. */
    private readonly onChange: (queued: readonly QueuedInput[]) => void,
  ) {}

  /**
   * Runs `task` after everything enqueued before it; resolves (or rejects) with it, and resolves
   * without running it when it is taken back. `text` is what the user typed for it.
   */
  enqueue(task: () => Promise<void>, text?: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, text, task, resolve, reject });
      if (this.running) this.changed();
      else void this.drain();
    });
  }

  /** Removes the newest waiting input that has a text, before it runs; returns that text. */
  takeBack(): string | undefined {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const entry = this.waiting[i];
      if (entry?.text === undefined) continue;
      this.waiting.splice(i, 1);
      this.changed();
      entry.resolve();
      return entry.text;
    }
    return undefined;
  }

  /** Resolves when every task enqueued so far has finished. */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async drain(): Promise<void> {
    this.running = true;
    // A task starts after the caller's synchronous code, as a promise chain would run it.
    await undefined;
    for (let entry = this.waiting.shift(); entry; entry = this.waiting.shift()) {
      this.changed();
      try {
        await entry.task();
        entry.resolve();
      } catch (error) {
        entry.reject(error);
      }
    }
    this.running = false;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private changed(): void {
    this.onChange(this.waiting.map(({ id, text }) => ({ id, text })));
  }
}
