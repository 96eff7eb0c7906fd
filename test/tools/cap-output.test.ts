import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capToolOutput, cutNote } from '../../src/tools/cap-output.js';

/** Arbitrary text, and line-structured text so the line-boundary preference is exercised. */
const outputs = fc.oneof(
  fc.string({ maxLength: 3000, unit: 'grapheme' }),
  fc.array(fc.string({ maxLength: 40 }), { maxLength: 150 }).map((lines) => lines.join('\n')),
);

describe('capToolOutput', () => {
  it('returns short output unchanged', () => {
    expect(capToolOutput('short', 100)).toBe('short');
  });

  it('keeps head and tail around a note of what was cut, at line boundaries', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const capped = capToolOutput(text, 400);
    expect(capped.startsWith('line 0\nline 1\n')).toBe(true);
    expect(capped.endsWith('line 998\nline 999')).toBe(true);
    const match = capped.match(/\n\[… ([\d,]+) characters cut …\]\n/);
    expect(match).not.toBeNull();
    const [head, tail] = capped.split(match![0]);
    expect(head!.endsWith('\n')).toBe(true);
    expect(text.startsWith(head!)).toBe(true);
    expect(text.endsWith(tail!)).toBe(true);
    expect(Number(match![1]!.replace(/,/g, ''))).toBe(text.length - head!.length - tail!.length);
  });

  it('formats the count with thousands separators', () => {
    expect(cutNote(12345)).toBe('[… 12,345 characters cut …]');
  });

  it('never exceeds the limit, keeps a true head and tail and counts the cut exactly', () => {
    fc.assert(
      fc.property(outputs, fc.integer({ min: 60, max: 2000 }), (text, max) => {
        const capped = capToolOutput(text, max);
        if (text.length <= max) return capped === text;
        expect(capped.length).toBeLessThanOrEqual(max);
        const match = capped.match(/\n\[… ([\d,]+) characters cut …\]\n/);
        expect(match).not.toBeNull();
        const at = capped.indexOf(match![0]);
        const head = capped.slice(0, at);
        const tail = capped.slice(at + match![0].length);
        expect(text.startsWith(head)).toBe(true);
        expect(text.endsWith(tail)).toBe(true);
        expect(Number(match![1]!.replace(/,/g, ''))).toBe(text.length - head.length - tail.length);
        return true;
      }),
    );
  });
});
