import { describe, expect, it } from 'vitest';
import { type QueuedInput, WorkQueue } from '../../../src/chat/state/work-queue.js';

/** A task that runs until `finish` is called, recording that it started. */
function gate(log: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    task: async () => {
      log.push(name);
      await done;
    },
    finish: () => finish(),
  };
}

describe('WorkQueue', () => {
  it('runs tasks one at a time in order, and shows what waits behind the running one', async () => {
    const seen: (readonly QueuedInput[])[] = [];
    const queue = new WorkQueue((queued) => seen.push(queued));
    const log: string[] = [];
    const first = gate(log, 'first');
    void queue.enqueue(first.task, 'first');
    void queue.enqueue(async () => void log.push('second'), 'second');
    void queue.enqueue(async () => void log.push('retry'));
    await Promise.resolve();
    expect(log).toEqual(['first']);
    expect(seen.at(-1)?.map((q) => q.text)).toEqual(['second', undefined]);
    first.finish();
    await queue.idle();
    expect(log).toEqual(['first', 'second', 'retry']);
    expect(seen.at(-1)).toEqual([]);
  });

  it('an idle queue shows nothing waiting: a task starts at once', async () => {
    const seen: (readonly QueuedInput[])[] = [];
    const queue = new WorkQueue((queued) => seen.push(queued));
    await queue.enqueue(async () => {}, 'hello');
    expect(seen.every((queued) => queued.length === 0)).toBe(true);
  });

  it('takes back the newest waiting input with a text, which then never runs', async () => {
    const queue = new WorkQueue(() => {});
    const log: string[] = [];
    const first = gate(log, 'first');
    void queue.enqueue(first.task, 'first');
    const a = queue.enqueue(async () => void log.push('a'), 'a');
    const b = queue.enqueue(async () => void log.push('b'), 'b');
    void queue.enqueue(async () => void log.push('retry'));
    await Promise.resolve();
    expect(queue.takeBack()).toBe('b');
    await b; // settled without running
    expect(queue.takeBack()).toBe('a');
    await a;
    // Neither the running task nor text-less work is taken back.
    expect(queue.takeBack()).toBeUndefined();
    first.finish();
    await queue.idle();
    expect(log).toEqual(['first', 'retry']);
  });

  it('a failing task rejects its own promise only; the next one still runs', async () => {
    const queue = new WorkQueue(() => {});
    const failing = queue.enqueue(async () => {
      throw new Error('boom');
    });
    const next = queue.enqueue(async () => {});
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBeUndefined();
  });
});
