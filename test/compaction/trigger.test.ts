import { describe, expect, it } from 'vitest';
import { isCompactionDue } from '../../src/compaction/trigger.js';

describe('isCompactionDue', () => {
  it('is due when the next request plus the reserve would not fit', () => {
    expect(isCompactionDue({ used: 6000, reserve: 2000, numCtx: 8192 })).toBe(false);
    expect(isCompactionDue({ used: 6192, reserve: 2000, numCtx: 8192 })).toBe(false);
    expect(isCompactionDue({ used: 6193, reserve: 2000, numCtx: 8192 })).toBe(true);
  });
});
