import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUT_MARKER, cutNarrative, isExactWord } from '../../src/compaction/narrative-cut.js';
import { estimateTokens } from '../../src/conversation/token-estimate.js';

const estimate = (s: string) => estimateTokens(s, 4);

describe('isExactWord', () => {
  it('tells names, numbers, paths and ids from plain words', () => {
    for (const word of ['2031-04-01', 'src/a.ts', 'FACT-x', 'user@host', 'Ada', 'camelCase', 'v1.2', 'a_b'])
      expect(isExactWord(word), word).toBe(true);
    for (const word of ['the', 'summary', 'plain,', 'words.']) expect(isExactWord(word), word).toBe(false);
  });
});

describe('cutNarrative', () => {
  it('leaves a narrative within budget alone', () => {
    expect(cutNarrative('short text', 10, estimate)).toEqual({ kept: 'short text', removed: '' });
  });

  it('drops plain words first, oldest first, and keeps the end', () => {
    const text = `the old plain talk goes on and on about nothing much at all here, then Ada set port 8080.`;
    const { kept, removed } = cutNarrative(text, 12, estimate);
    expect(estimate(kept)).toBeLessThanOrEqual(12);
    expect(kept).toContain('Ada');
    expect(kept).toContain('8080.');
    expect(kept.startsWith(CUT_MARKER)).toBe(true);
    expect(removed.startsWith('the old plain')).toBe(true);
  });

  it('never exceeds the budget, and kept plus removed account for every word', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('alpha', 'beta', 'FACT-1', 'Ada', '/p/q', 'x', 'gamma.'), { maxLength: 80 }),
        fc.integer({ min: 1, max: 60 }),
        (words, max) => {
          const text = words.join(' ');
          const { kept, removed } = cutNarrative(text, max, estimate);
          expect(estimate(kept)).toBeLessThanOrEqual(max);
          const strip = (s: string) => s.split(/\s+/).filter((w) => w && w !== CUT_MARKER);
          expect([...strip(kept), ...strip(removed)].sort()).toEqual(strip(text).sort());
        },
      ),
      { numRuns: 200 },
    );
  });
});
