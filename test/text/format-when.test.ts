import { describe, expect, it } from 'vitest';
import { formatWhen } from '../../src/text/format-when.js';

/** A local time (the formatter speaks local time, whatever the machine's zone). */
const local = (y: number, month: number, d: number, h: number, min: number, s = 0) =>
  new Date(y, month - 1, d, h, min, s);

describe('formatWhen', () => {
  const now = local(2026, 12, 3, 14, 30);

  it('says "just now" within a minute', () => {
    expect(formatWhen(local(2026, 12, 3, 14, 29, 31), now)).toBe('just now');
    expect(formatWhen(now, now)).toBe('just now');
  });

  it('counts minutes within the hour', () => {
    expect(formatWhen(local(2026, 12, 3, 14, 27), now)).toBe('3 min ago');
    expect(formatWhen(local(2026, 12, 3, 13, 31), now)).toBe('59 min ago');
  });

  it('gives the time of day today, and yesterday', () => {
    expect(formatWhen(local(2026, 12, 3, 9, 5), now)).toBe('today at 09:05');
    expect(formatWhen(local(2026, 12, 2, 23, 59), now)).toBe('yesterday at 23:59');
  });

  it('gives the date this year, and the year otherwise', () => {
    expect(formatWhen(local(2026, 8, 21, 10, 0), now)).toBe('on 21 Aug at 10:00');
    expect(formatWhen(local(2025, 12, 31, 8, 7), now)).toBe('on 31 Dec 2025 at 08:07');
  });

  it('yesterday across a month boundary', () => {
    expect(formatWhen(local(2026, 11, 30, 20, 0), local(2026, 12, 1, 8, 0))).toBe('yesterday at 20:00');
  });

  it('reads ISO strings (as stored) and keeps what it cannot read', () => {
    const at = local(2026, 12, 3, 9, 5);
    expect(formatWhen(at.toISOString(), now)).toBe('today at 09:05');
    expect(formatWhen('not a time', now)).toBe('not a time');
  });

  it('a time in the future (another clock) is not "ago"', () => {
    expect(formatWhen(local(2026, 12, 3, 14, 40), now)).toBe('today at 14:40');
  });
});
