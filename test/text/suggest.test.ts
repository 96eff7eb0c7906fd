import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance, suggest } from '../../src/text/suggest.js';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps as one edit each', () => {
    expect(editDistance('reserve', 'reserv')).toBe(1);
    expect(editDistance('model', 'mdoel')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('is zero exactly for equal strings, symmetric, and at most the longer length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = editDistance(a, b);
        expect(d === 0).toBe(a === b);
        expect(editDistance(b, a)).toBe(d);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
    );
  });
});

describe('suggest', () => {
  const keys = ['model', 'host', 'system', 'think', 'options', 'compaction', 'tools'];

  it('suggests the near miss of a typo', () => {
    expect(suggest('modle', keys)).toBe('model');
    expect(suggest('compactoin', keys)).toBe('compaction');
    expect(suggest('reserv', ['auto', 'model', 'reserve', 'keep_recent'])).toBe('reserve');
  });

  it('ignores case, hyphens and underscores', () => {
    expect(suggest('numCtx', ['num_ctx', 'num_batch'])).toBe('num_ctx');
    expect(suggest('keep-recent', ['keep_recent', 'reserve'])).toBe('keep_recent');
  });

  it('falls back to a candidate containing the name', () => {
    expect(suggest('ctx', ['num_ctx', 'num_keep', 'seed'])).toBe('num_ctx');
  });

  it('suggests nothing when no candidate is close', () => {
    expect(suggest('zzzz', keys)).toBeUndefined();
    expect(suggest('', keys)).toBeUndefined();
    expect(suggest('x', [])).toBeUndefined();
  });

  it('only ever returns one of the candidates, and a candidate for itself', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 10 }),
        fc.array(fc.string({ maxLength: 10 }), { maxLength: 8 }),
        (name, cands) => {
          const result = suggest(name, cands);
          if (result !== undefined) expect(cands).toContain(result);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z]{2,10}$/), { minLength: 1, maxLength: 8 }),
        (cands) => {
          for (const c of cands) expect(suggest(c, cands)).toBe(c);
        },
      ),
    );
  });
});
