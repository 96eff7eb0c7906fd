import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUT_MARKER, cutNarrative, isExactWord } from '../../src/compaction/narrative-cut.js';
import { estimateTokens } from '../../src/conversation/token-estimate.js';

const estimate = (s: string) => estimateTokens(s, 4);
/** One token per character: budgets exact to the character. */
const chars = (s: string) => s.length;

describe('isExactWord', () => {
  it('tells names, numbers, paths and ids from plain words', () => {
    const exact = [
      '2031-04-01',
      'src/a.ts',
      'C:\\tmp',
      'FACT-x',
      'user@host',
      '#42x',
      'key=val',
      'a_b',
      'v1.2',
    ];
    const names = ['Ada', '(Ada)', '“Porto”', 'camelCase', 'iPhone', 'host:port', 'NASA'];
    for (const word of [...exact, ...names]) expect(isExactWord(word), word).toBe(true);
    for (const word of ['the', 'summary', 'plain,', 'words.', '(aside)', '—', 'end:'])
      expect(isExactWord(word), word).toBe(false);
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

  it('cuts no more words than it must', () => {
    // 18 characters into 13: dropping "one" leaves 16, "one two" 12 — the fewest that fit.
    expect(cutNarrative('one two three four', 13, chars)).toEqual({
      kept: '… three four',
      removed: 'one two',
    });
  });

  it('after dropping many words at once, puts back all that fit again', () => {
    const words = Array.from({ length: 10 }, (_, i) => `plainword${i}`);
    // 10 words of 10 characters: 109 into 60 keeps the newest 5 ("… " + 54 = 56); 6 would be 67.
    expect(cutNarrative(words.join(' '), 60, chars)).toEqual({
      kept: `… ${words.slice(5).join(' ')}`,
      removed: words.slice(0, 5).join(' '),
    });
  });

  it('when one long word is enough, cuts only it, even at exactly the budget', () => {
    const rest = 'one two three four five six seven eight nine';
    const text = `${'x'.repeat(40)} ${rest}`;
    expect(cutNarrative(text, 46, chars)).toEqual({ kept: `… ${rest}`, removed: 'x'.repeat(40) });
  });

  it('drops names, numbers and ids only once every plain word is gone, oldest first', () => {
    const text = 'Ada met Bob at the cafe in Porto';
    expect(cutNarrative(text, 17, chars)).toEqual({
      kept: 'Ada … Bob … Porto',
      removed: 'met … at the cafe in',
    });
    expect(cutNarrative(text, 13, chars)).toEqual({
      kept: '… Bob … Porto',
      removed: 'Ada met … at the cafe in',
    });
  });

  it('keeps the line breaks between the words it keeps, one marker per run cut', () => {
    const text = 'Facts so far:\n- port 8080 was chosen\n- Ada owns it';
    expect(cutNarrative(text, 45, chars)).toEqual({
      kept: 'Facts …\n- port 8080 was chosen\n- Ada owns it',
      removed: 'so far:',
    });
    expect(cutNarrative(text, 30, chars)).toEqual({
      kept: 'Facts … 8080 …\n- Ada owns it',
      removed: 'so far: - port … was chosen',
    });
  });

  it('keeps nothing, not a lone marker, when no word fits', () => {
    expect(cutNarrative('some words', 0, chars)).toEqual({ kept: '', removed: 'some words' });
    expect(cutNarrative('some words', 3, chars)).toEqual({ kept: '', removed: 'some words' });
    expect(cutNarrative('some words', 7, chars)).toEqual({ kept: '… words', removed: 'some' });
  });
});
