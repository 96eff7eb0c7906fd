import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenLoopFree } from '../../src/async/when-loop-free.js';

describe('whenLoopFree', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls back once a probe fires on time, not while the loop is busy', () => {
    let now = 0;
    const then = vi.fn();
    whenLoopFree(then, () => now);
    // The loop was blocked 400 ms (a frame laid out): the first probe fires late.
    now += 400;
    vi.advanceTimersByTime(50);
    expect(then).not.toHaveBeenCalled();
    // The next probe fires on time: everything queued before it has run.
    now += 50;
    vi.advanceTimersByTime(50);
    expect(then).toHaveBeenCalledTimes(1);
  });

  it('stops waiting when told', () => {
    let now = 0;
    const then = vi.fn();
    const stop = whenLoopFree(then, () => now);
    stop();
    now += 50;
    vi.advanceTimersByTime(500);
    expect(then).not.toHaveBeenCalled();
  });
});
