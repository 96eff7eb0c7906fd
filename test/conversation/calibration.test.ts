import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_SMOOTHING,
  calibrateCharsPerToken,
  calibrationSampleFor,
  MAX_CHARS_PER_TOKEN,
  MIN_CALIBRATION_TOKENS,
  MIN_CHARS_PER_TOKEN,
} from '../../src/conversation/calibration.js';
import { DEFAULT_CHARS_PER_TOKEN, IMAGE_TOKENS } from '../../src/conversation/token-estimate.js';

describe('calibrateCharsPerToken', () => {
  it('takes the observed ratio when nothing was learned yet', () => {
    expect(calibrateCharsPerToken(undefined, { chars: 3000, tokens: 1000 })).toBe(3);
  });

  it('smooths a new sample against the previous value', () => {
    expect(CALIBRATION_SMOOTHING).toBe(0.3);
    expect(calibrateCharsPerToken(4, { chars: 3000, tokens: 1000 })).toBeCloseTo(3.7, 10);
  });

  it('ignores tiny and nonsensical samples', () => {
    expect(calibrateCharsPerToken(4.2, { chars: 150, tokens: 50 })).toBe(4.2);
    expect(calibrateCharsPerToken(undefined, { chars: 150, tokens: 50 })).toBe(4);
    expect(calibrateCharsPerToken(3.5, { chars: 1000, tokens: -20 })).toBe(3.5);
    expect(calibrateCharsPerToken(3.5, { chars: 0, tokens: 500 })).toBe(3.5);
    expect(calibrateCharsPerToken(3.5, { chars: 1000, tokens: Number.NaN })).toBe(3.5);
  });

  it('clamps to the sane range', () => {
    expect(calibrateCharsPerToken(undefined, { chars: 100_000, tokens: 1000 })).toBe(MAX_CHARS_PER_TOKEN);
    expect(calibrateCharsPerToken(undefined, { chars: 500, tokens: 1000 })).toBe(MIN_CHARS_PER_TOKEN);
    expect(calibrateCharsPerToken(50, { chars: 10, tokens: 5 })).toBe(MAX_CHARS_PER_TOKEN);
  });

  it('always stays within the range', () => {
    fc.assert(
      fc.property(
        fc.option(fc.double({ noNaN: false }), { nil: undefined }),
        fc.double(),
        fc.double(),
        (previous, chars, tokens) => {
          const ratio = calibrateCharsPerToken(previous, { chars, tokens });
          expect(ratio).toBeGreaterThanOrEqual(MIN_CHARS_PER_TOKEN);
          expect(ratio).toBeLessThanOrEqual(MAX_CHARS_PER_TOKEN);
        },
      ),
    );
  });

  it('converges on a steady ratio', () => {
    let ratio: number | undefined;
    for (let i = 0; i < 30; i++) ratio = calibrateCharsPerToken(ratio ?? 4, { chars: 2500, tokens: 1000 });
    expect(ratio).toBeCloseTo(2.5, 3);
  });
});

describe('calibrationSampleFor', () => {
  it('counts the weighted chars sent and subtracts overhead and images from the server count', () => {
    const sample = calibrationSampleFor(
      [
        { role: 'system', content: 'abcd' },
        { role: 'user', content: '日本', images: ['x'] },
      ],
      2000,
    );
    expect(sample).toEqual({ chars: 10, tokens: 2000 - 8 - IMAGE_TOKENS });
  });
});

describe('calibrateCharsPerToken at the edges', () => {
  it('learns from a sample of exactly the minimum size, not one token less', () => {
    const chars = MIN_CALIBRATION_TOKENS * 3;
    expect(calibrateCharsPerToken(undefined, { chars, tokens: MIN_CALIBRATION_TOKENS })).toBe(3);
    expect(calibrateCharsPerToken(undefined, { chars, tokens: MIN_CALIBRATION_TOKENS - 1 })).toBe(
      DEFAULT_CHARS_PER_TOKEN,
    );
  });

  it('ignores a corrupt previous ratio (NaN, Infinity) as if there were none', () => {
    for (const previous of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(calibrateCharsPerToken(previous, { chars: 3000, tokens: 1000 })).toBe(3);
      expect(calibrateCharsPerToken(previous, { chars: 0, tokens: 1000 })).toBe(DEFAULT_CHARS_PER_TOKEN);
    }
  });
});
