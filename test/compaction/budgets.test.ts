import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BudgetSpecs,
  MIN_WORKING_TOKENS,
  resolveBudgets,
  SYSTEM_PROMPT_ROOM_RATIO,
  smallestNumCtx,
} from '../../src/compaction/budgets.js';

const specs: BudgetSpecs = {
  reserve: { ratio: 0.2, min_tokens: 1024 },
  keep_recent: { ratio: 0.3, min_tokens: 2048 },
  summary: { ratio: 0.1, min_tokens: 512 },
};

describe('resolveBudgets', () => {
  it('takes floor(max(ratio × numCtx, min_tokens)) for each budget', () => {
    expect(resolveBudgets(8192, specs)).toEqual({
      reserve: 1638,
      keepRecent: 2457,
      summary: 819,
      numCtx: 8192,
      scaled: false,
    });
    expect(resolveBudgets(4096, { ...specs, keep_recent: { ratio: 0.1, min_tokens: 0 } })).toEqual({
      reserve: 1024,
      keepRecent: 409,
      summary: 512,
      numCtx: 4096,
      scaled: false,
    });
  });

  it('scales all three down proportionally when they do not fit, leaving room for the system prompt', () => {
    // Floors 1024 + 2048 + 512 = 3584 over the 1843 available in 2048 (10% kept for the system prompt).
    const factor = 1843 / 3584;
    expect(resolveBudgets(2048, specs)).toEqual({
      reserve: Math.floor(1024 * factor),
      keepRecent: Math.floor(2048 * factor),
      summary: Math.floor(512 * factor),
      numCtx: 2048,
      scaled: true,
    });
    expect(resolveBudgets(2048, specs)).toMatchObject({ reserve: 526, keepRecent: 1053, summary: 263 });
  });

  it('rejects a window that is not positive', () => {
    expect(() => resolveBudgets(0, specs)).toThrow(RangeError);
    expect(() => resolveBudgets(Number.NaN, specs)).toThrow(RangeError);
  });

  it('always leaves the system prompt its room, and scales only when needed', () => {
    const spec = fc.record({
      ratio: fc.double({ min: 0, max: 1, noNaN: true }),
      min_tokens: fc.nat(100_000),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 256, max: 1_000_000 }),
        spec,
        spec,
        spec,
        (numCtx, reserve, keep, summary) => {
          const b = resolveBudgets(numCtx, { reserve, keep_recent: keep, summary });
          const total = b.reserve + b.keepRecent + b.summary;
          expect(total).toBeLessThanOrEqual(numCtx * (1 - SYSTEM_PROMPT_ROOM_RATIO));
          const raw = [reserve, keep, summary].map((s) =>
            Math.floor(Math.max(s.ratio * numCtx, s.min_tokens)),
          );
          if (!b.scaled) expect([b.reserve, b.keepRecent, b.summary]).toEqual(raw);
          else expect(raw[0] + raw[1] + raw[2]).toBeGreaterThan(numCtx * (1 - SYSTEM_PROMPT_ROOM_RATIO));
        },
      ),
    );
  });
});

describe('resolveBudgets with fixed tokens (tool definitions)', () => {
  it('leaves room for them: the three budgets scale to the window less system room and fixed tokens', () => {
    const specs: BudgetSpecs = {
      reserve: { ratio: 0.25, min_tokens: 1024 },
      keep_recent: { ratio: 0.3, min_tokens: 1024 },
      summary: { ratio: 0.15, min_tokens: 512 },
    };
    const budgets = resolveBudgets(2048, specs, 566);
    expect(budgets.scaled).toBe(true);
    expect(budgets.reserve + budgets.keepRecent + budgets.summary).toBeLessThanOrEqual(
      Math.floor(2048 * (1 - SYSTEM_PROMPT_ROOM_RATIO)) - 566,
    );
    expect(resolveBudgets(2048, specs, 5000)).toMatchObject({ reserve: 0, keepRecent: 0, summary: 0 });
  });
});

describe('resolveBudgets at the edges', () => {
  it('refuses a window that is not positive, naming it', () => {
    expect(() => resolveBudgets(0, specs)).toThrow('num_ctx must be positive, got 0');
  });

  it('does not scale budgets that exactly fill the room left for them', () => {
    // 10 000 × 0.9 = 9000 available: 3000 each fills it exactly.
    const exact = { ratio: 0, min_tokens: 3000 };
    const budgets = resolveBudgets(10_000, { reserve: exact, keep_recent: exact, summary: exact });
    expect(budgets.scaled).toBe(false);
    expect(
      resolveBudgets(10_000, { reserve: exact, keep_recent: exact, summary: { ratio: 0, min_tokens: 3001 } })
        .scaled,
    ).toBe(true);
  });
});

describe('smallestNumCtx', () => {
  it('leaves MIN_WORKING_TOKENS to the budgets besides what every request carries, and no less', () => {
    for (const [fixed, system] of [
      [0, 0],
      [566, 40],
      [2000, 900],
    ]) {
      const smallest = smallestNumCtx(fixed, system);
      const room = (n: number) =>
        Math.min(Math.floor(n * (1 - SYSTEM_PROMPT_ROOM_RATIO)) - fixed, n - fixed - system);
      expect(room(smallest)).toBeGreaterThanOrEqual(MIN_WORKING_TOKENS);
      expect(room(smallest - 1)).toBeLessThan(MIN_WORKING_TOKENS);
    }
  });
});
