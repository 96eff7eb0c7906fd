import { describe, expect, it } from 'vitest';
import { type CompactionRecord, latestRecord } from '../../src/conversation/compaction-record.js';

const base: CompactionRecord = {
  upto: 4,
  narrative: 'n',
  toolEntries: [],
  model: 'm',
  at: '2026-01-01T00:00:00.000Z',
  tokensBefore: 10,
  tokensAfter: 5,
};

describe('latestRecord', () => {
  it('is the last record appended', () => {
    const second = { ...base, upto: 9 };
    expect(latestRecord([base, second])).toBe(second);
    expect(latestRecord([])).toBeUndefined();
  });
});
