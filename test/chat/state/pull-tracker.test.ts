import { describe, expect, it } from 'vitest';
import { PullTracker } from '../../../src/chat/state/pull-tracker.js';

const layer = (completed: number, total = 2_000_000_000, digest = 'sha256:6a0746a1ec1aabc') => ({
  status: 'pulling 6a0746a1ec1a',
  digest,
  total,
  completed,
});

describe('PullTracker', () => {
  it('keeps the steps in order, each layer, and sums the totals announced at 0', () => {
    const tracker = new PullTracker();
    tracker.add({ status: 'pulling manifest' }, 0);
    tracker.add(layer(0), 0);
    tracker.add(layer(0, 1_000, 'sha256:ffff'), 0);
    tracker.add(layer(500_000_000), 1000);
    const state = tracker.state();
    expect(state.steps).toEqual(['pulling manifest']);
    expect(state.layers.map((l) => [l.completed, l.total])).toEqual([
      [500_000_000, 2_000_000_000],
      [0, 1_000],
    ]);
    expect(state.total).toBe(2_000_001_000);
    expect(state.completed).toBe(500_000_000);
  });

  it('measures the rate over the last seconds, unknown before a quarter second has passed', () => {
    const tracker = new PullTracker();
    tracker.add(layer(0), 0);
    tracker.add(layer(1_000_000), 100);
    expect(tracker.state().rate).toBe(0);
    tracker.add(layer(30_000_000), 1000);
    expect(tracker.state().rate).toBe(30_000_000);
    // Only the last 5 s count: a slower stretch shows at once, not averaged over the whole pull.
    for (let t = 2000; t <= 10_000; t += 1000)
      tracker.add(layer(30_000_000 + ((t - 1000) / 1000) * 10_000_000), t);
    expect(tracker.state().rate).toBeCloseTo(10_000_000, -3);
  });

  it('has no rate once every layer is complete', () => {
    const tracker = new PullTracker();
    tracker.add(layer(0, 100), 0);
    tracker.add(layer(100, 100), 1000);
    tracker.add({ status: 'success' }, 1000);
    expect(tracker.state()).toMatchObject({ rate: 0, completed: 100, steps: ['success'] });
  });
});
