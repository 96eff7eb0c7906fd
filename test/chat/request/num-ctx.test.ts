import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NUM_CTX, resolveNumCtx } from '../../../src/chat/request/num-ctx.js';

describe('resolveNumCtx', () => {
  it('takes --num-ctx over everything else', () => {
    expect(resolveNumCtx({ flag: 4096, config: 16384, modelfile: 32768, trained: 131072 })).toEqual({
      numCtx: 4096,
      source: 'flag',
    });
  });

  it('takes the config over the Modelfile', () => {
    expect(resolveNumCtx({ config: 16384, modelfile: 32768, trained: 131072 })).toEqual({
      numCtx: 16384,
      source: 'config',
    });
  });

  it('takes the Modelfile when neither flag nor config sets one', () => {
    expect(resolveNumCtx({ modelfile: 32768, trained: 131072 })).toEqual({
      numCtx: 32768,
      source: 'modelfile',
    });
  });

  it('falls back to 8192', () => {
    expect(DEFAULT_NUM_CTX).toBe(8192);
    expect(resolveNumCtx({})).toEqual({ numCtx: 8192, source: 'default' });
  });

  it('caps at the trained maximum and says from what', () => {
    expect(resolveNumCtx({ flag: 65536, trained: 40960 })).toEqual({
      numCtx: 40960,
      source: 'flag',
      cappedFrom: 65536,
    });
    expect(resolveNumCtx({ trained: 2048 })).toEqual({ numCtx: 2048, source: 'default', cappedFrom: 8192 });
  });

  it('does not cap a value at or below the trained maximum', () => {
    expect(resolveNumCtx({ config: 40960, trained: 40960 })).toEqual({ numCtx: 40960, source: 'config' });
  });

  it('ignores a nonsensical Modelfile or trained value from the server', () => {
    expect(resolveNumCtx({ modelfile: 0, trained: -1 })).toEqual({ numCtx: 8192, source: 'default' });
    expect(resolveNumCtx({ modelfile: 1.5 })).toEqual({ numCtx: 8192, source: 'default' });
  });

  it('throws on a flag or config value that is not a positive integer', () => {
    expect(() => resolveNumCtx({ flag: 0 })).toThrow(/flag must be a positive integer, got 0/);
    expect(() => resolveNumCtx({ config: 100.5 })).toThrow(/config must be a positive integer/);
    expect(() => resolveNumCtx({ flag: Number.NaN })).toThrow(RangeError);
  });

  it('never exceeds the trained maximum and always names the first source given', () => {
    const size = fc.option(fc.integer({ min: 1, max: 1 << 20 }), { nil: undefined });
    fc.assert(
      fc.property(size, size, size, size, (flag, config, modelfile, trained) => {
        const result = resolveNumCtx({ flag, config, modelfile, trained });
        if (trained !== undefined) expect(result.numCtx).toBeLessThanOrEqual(trained);
        const expectedSource =
          flag !== undefined
            ? 'flag'
            : config !== undefined
              ? 'config'
              : modelfile !== undefined
                ? 'modelfile'
                : 'default';
        expect(result.source).toBe(expectedSource);
        const wanted = flag ?? config ?? modelfile ?? DEFAULT_NUM_CTX;
        expect(result.numCtx).toBe(trained !== undefined ? Math.min(wanted, trained) : wanted);
        expect(result.cappedFrom).toBe(trained !== undefined && wanted > trained ? wanted : undefined);
      }),
    );
  });
});
