import { describe, expect, it } from 'vitest';
import { PullTracker } from '../../src/chat/state/pull-tracker.js';
import {
  formatTimeLeft,
  PlainPullPacer,
  pullLayerLine,
  pullLines,
  pullPlainLine,
} from '../../src/ui/pull-layout.js';

const downloading = {
  status: 'pulling 6a0746a1ec1a',
  total: 2_019_377_376,
  completed: 465_000_000,
  rate: 31_000_000,
};

describe('pullLayerLine (ollama pull layout)', () => {
  it('shows the layer, percent, bar, completed/total, rate and time left at 100 columns', () => {
    const line = pullLayerLine(downloading, 100);
    expect(line).toMatch(/^pulling 6a0746a1ec1a: {2}23% ▕█+ +▏ 465 MB\/2\.0 GB {3}31 MB\/s {5}51s$/);
    expect(line.length).toBe(100);
    // The bar is filled in proportion: 23% of its cells.
    const cells = /▕(.*)▏/.exec(line)?.[1] ?? '';
    expect(cells.split('█').length - 1).toBe(Math.floor((cells.length * 465_000_000) / 2_019_377_376));
  });

  it('fits every width from 40 to 200 columns, dropping rate and time, then the bar, when narrow', () => {
    for (let width = 40; width <= 200; width++) {
      for (const layer of [
        downloading,
        { ...downloading, completed: 0, rate: 0 },
        { ...downloading, completed: downloading.total },
      ]) {
        const line = pullLayerLine(layer, width);
        expect(line.length, `width ${width}: ${line}`).toBeLessThanOrEqual(width);
        expect(line.startsWith('pulling 6a0746a1ec1a:')).toBe(true);
      }
    }
    expect(pullLayerLine(downloading, 200)).toContain('31 MB/s');
    expect(pullLayerLine(downloading, 60)).not.toContain('MB/s');
    expect(pullLayerLine(downloading, 60)).toContain('▕');
    expect(pullLayerLine(downloading, 40)).toBe('pulling 6a0746a1ec1a:  23% 465 MB/2.0 GB');
  });

  it('shows a finished layer with its size only, as ollama pull does', () => {
    expect(pullLayerLine({ ...downloading, completed: downloading.total, rate: 0 }, 80)).toMatch(
      /^pulling 6a0746a1ec1a: 100% ▕█+▏ {8}2\.0 GB$/,
    );
  });

  it('formats the time left in Go style', () => {
    expect([formatTimeLeft(49.2), formatTimeLeft(90), formatTimeLeft(3725)]).toEqual([
      '50s',
      '1m30s',
      '1h2m',
    ]);
  });
});

describe('pullLines', () => {
  it('puts the manifest first, a line per layer, then the steps after the layers', () => {
    const tracker = new PullTracker();
    tracker.add({ status: 'pulling manifest' }, 0);
    tracker.add({ status: 'pulling aaaaaaaaaaaa', digest: 'sha256:a', total: 1000, completed: 1000 }, 0);
    tracker.add({ status: 'verifying sha256 digest' }, 0);
    tracker.add({ status: 'writing manifest' }, 0);
    tracker.add({ status: 'success' }, 0);
    const lines = pullLines(tracker.state(), 80);
    expect(lines[0]).toBe('pulling manifest');
    expect(lines[1]).toMatch(/^pulling aaaaaaaaaaaa: 100% ▕█+▏ +1\.0 kB$/);
    expect(lines.slice(2)).toEqual(['verifying sha256 digest', 'writing manifest', 'success']);
  });
});

describe('line mode (TERM=dumb)', () => {
  it('prints a plain line per step at once, and progress at most once a second', () => {
    const tracker = new PullTracker();
    const pacer = new PlainPullPacer();
    const printed: string[] = [];
    const feed = (progress: Parameters<PullTracker['add']>[0], at: number) => {
      tracker.add(progress, at);
      const line = pacer.next('tiny', tracker.state(), at);
      if (line) printed.push(line);
    };
    feed({ status: 'pulling manifest' }, 0);
    const total = 100_000_000;
    for (let at = 0; at <= 3000; at += 100) {
      feed(
        {
          status: 'pulling 0123456789ab',
          digest: 'sha256:x',
          total,
          completed: Math.min(total, at * 10_000),
        },
        at,
      );
    }
    feed({ status: 'pulling 0123456789ab', digest: 'sha256:x', total, completed: total }, 3050);
    feed({ status: 'verifying sha256 digest' }, 3060);
    feed({ status: 'success' }, 3070);
    expect(printed[0]).toBe('pulling manifest');
    // The layer's first line comes within the second after the manifest line: held back.
    expect(printed[1]).toBe('pulling tiny: 10% (10 MB of 100 MB, 10 MB/s, 9s left)');
    expect(printed.slice(-2)).toEqual(['verifying sha256 digest', 'success']);
    // 3 s of progress lines every 100 ms: no more than one a second got through.
    const progress = printed.filter((line) => line.startsWith('pulling tiny:'));
    expect(progress.length).toBeLessThanOrEqual(5);
    expect(printed.every((line) => !/[\u001b▕█]/.test(line))).toBe(true);
  });

  it('names the model while nothing is known yet', () => {
    expect(pullPlainLine('tiny', { steps: [], layers: [], total: 0, completed: 0, rate: 0 })).toBe(
      'pulling tiny',
    );
  });
});
