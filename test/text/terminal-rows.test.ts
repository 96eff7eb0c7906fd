import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charWidth, displayWidth, expandTabs, wrapToRows } from '../../src/text/terminal-rows.js';

describe('terminal rows', () => {
  it('counts wide characters as two columns and combining marks as none', () => {
    expect(charWidth('a')).toBe(1);
    expect(charWidth('你')).toBe(2);
    expect(charWidth('🎉')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('ab你好')).toBe(6);
  });

  it('measures emoji as the terminal draws them, two columns each, modifiers and joiners included', () => {
    for (const emoji of ['🚀', '✅', '⚡', '👍🏽', '👨‍👩‍👧', '🇯🇵']) expect(charWidth(emoji)).toBe(2);
    expect(displayWidth('🚀 ✅ ⚡')).toBe(8);
    // A row never splits a grapheme: the skin-tone modifier stays with its hand.
    expect(wrapToRows('ab👍🏽cd', 3)).toEqual(['ab', '👍🏽c', 'd']);
  });

  it('wraps at spaces where possible and hard-breaks long words', () => {
    expect(wrapToRows('the quick brown fox', 10)).toEqual(['the quick', 'brown fox']);
    expect(wrapToRows('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapToRows('a\n\nb', 10)).toEqual(['a', '', 'b']);
    expect(wrapToRows('你好你好', 5)).toEqual(['你好', '你好']);
  });

  it('wraps printable ASCII (its fast path) as it wraps the same words with accented letters (property)', () => {
    // 'é' as e + a combining accent is one column, like 'e', but takes the grapheme path.
    const word = fc.stringMatching(/^[a-z]{0,12}$/);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 30 }), fc.integer({ min: 1, max: 30 }), (words, width) => {
        const ascii = words.join(' ');
        const accented = ascii.replace(/e/g, 'e\u0301');
        const rows = wrapToRows(ascii, width);
        expect(rows.map((row) => row.replace(/e/g, 'e\u0301'))).toEqual(wrapToRows(accented, width));
      }),
    );
  });

  it('expands tabs', () => {
    expect(expandTabs('a\tb')).toBe('a    b');
  });

  it('never produces a row wider than the width and loses no non-space text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 2, max: 40 }), (raw, width) => {
        const text = raw.replace(/[\x00-\x1f\x7f-\x9f\t]/g, '');
        const rows = wrapToRows(text, width);
        for (const row of rows) expect(displayWidth(row)).toBeLessThanOrEqual(width);
        expect(rows.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
      }),
    );
  });

  it('no row starts with a space the text did not have, and every row fits (property, widths 20-200)', () => {
    const word = fc.stringMatching(/^[a-z0-9你é🚀.,`|-]{1,30}$/u);
    const line = fc.array(word, { minLength: 1, maxLength: 60 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 20, max: 200 }),
        fc.integer({ min: 0, max: 8 }),
        fc.boolean(),
        (lines, width, indent, keepIndent) => {
          const lead = ' '.repeat(indent);
          const text = lines.map((l) => lead + l).join('\n');
          const rows = wrapToRows(text, width, { keepIndent, hang: 2 });
          const expected = (keepIndent ? indent : 0) + 2;
          for (const row of rows) expect(displayWidth(row)).toBeLessThanOrEqual(width);
          // Each row is a line's first row (its own indent) or a continuation (exactly the indent asked for).
          for (const row of rows) {
            const spaces = /^ */.exec(row)?.[0].length ?? 0;
            expect([indent, expected]).toContain(spaces);
          }
          // Nothing is lost or added but the breaks' spaces and the indents.
          const letters = (t: string) => t.replace(/\s/g, '');
          expect(letters(rows.join(''))).toBe(letters(text));
        },
      ),
    );
  });

  it('a word moved to an indented row that is too wide for it breaks again (found by the property above)', () => {
    const rows = wrapToRows('        0 é0,你,-0你` a', 20, { keepIndent: true, hang: 2 });
    for (const row of rows) expect(displayWidth(row)).toBeLessThanOrEqual(20);
    expect(rows).toEqual(['        0', '          é0,你,-0你', '          ` a']);
  });

  it('a word that ends exactly at the edge leaves no space at the start of the next row', () => {
    expect(wrapToRows('lorem lorem lorem', 11)).toEqual(['lorem lorem', 'lorem']);
    expect(wrapToRows('aaaaa  bbbbb', 5)).toEqual(['aaaaa', 'bbbbb']);
    expect(wrapToRows('  - item one two', 12, { keepIndent: true, hang: 2 })).toEqual([
      '  - item one',
      '    two',
    ]);
  });
});
