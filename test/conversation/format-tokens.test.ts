import { describe, expect, it } from 'vitest';
import { formatTokens } from '../../src/conversation/format-tokens.js';

describe('formatTokens', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [999, '999'],
    [1000, '1k'],
    [1234, '1.2k'],
    [6100, '6.1k'],
    [6144, '6.1k'],
    [8000, '8k'],
    [8192, '8k'],
    [9949, '9.9k'],
    [9960, '10k'],
    [12_345, '12k'],
    [32_000, '32k'],
    [32_768, '32k'],
    [131_072, '128k'],
    [999_999, '1M'],
    [1_048_576, '1M'],
    [2_097_152, '2.1M'],
    [1_100_000, '1.1M'],
    [-1500, '-1.5k'],
    [Number.NaN, '?'],
  ])('%d → %s', (n, expected) => {
    expect(formatTokens(n)).toBe(expected);
  });
});
