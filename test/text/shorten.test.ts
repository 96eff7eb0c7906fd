import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capText, collapseWhitespace, headAndTail, oneLine } from '../../src/text/shorten.js';

describe('collapseWhitespace', () => {
  it('turns every whitespace run into one space and trims', () => {
    expect(collapseWhitespace('  a \n\n b\tc\u00a0 d  ')).toBe('a b c d');
    expect(collapseWhitespace('one two')).toBe('one two');
  });

  it('matches the plain /\\s+/ → " " definition on any text', () => {
    const ws = fc.constantFrom(' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u2028', '\u3000', 'a', 'bc', '.');
    fc.assert(
      fc.property(
        fc.array(ws).map((parts) => parts.join('')),
        (s) => {
          expect(collapseWhitespace(s)).toBe(s.replace(/\s+/g, ' ').trim());
        },
      ),
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(collapseWhitespace(s)).toBe(s.replace(/\s+/g, ' ').trim());
      }),
    );
  });
});

describe('capText', () => {
  it('cuts with a marker saying how much was cut, never inside a surrogate pair', () => {
    expect(capText('abcdef', 10)).toBe('abcdef');
    expect(capText('abcdef', 2)).toBe('ab… [+4 chars]');
    expect(capText('a😀b', 2)).toBe('a… [+3 chars]');
  });
});

describe('capText at the edges', () => {
  it('keeps a text of exactly maxChars whole', () => {
    expect(capText('abcde', 5)).toBe('abcde');
    expect(capText('abcdef', 5)).toBe('abcde… [+1 chars]');
  });

  it('steps back over a high surrogate only, so no emoji is split and no other char is lost', () => {
    // '🎉' is two code units: a cut after its first would leave half of it.
    expect(capText('ab🎉cd', 3)).toBe('ab… [+4 chars]');
    expect(capText('ab🎉cd', 4)).toBe('ab🎉… [+2 chars]');
    // Code units just outside the high-surrogate range are ordinary characters.
    expect(capText('a\ud7ffbc', 2)).toBe('a\ud7ff… [+2 chars]');
    expect(capText('a\udc00bc', 2)).toBe('a\udc00… [+2 chars]');
    expect(capText('a\udbffbc', 2)).toBe('a… [+3 chars]');
    expect(capText('a\ud800bc', 2)).toBe('a… [+3 chars]');
  });
});

describe('oneLine', () => {
  it('collapses whitespace and keeps short text whole', () => {
    expect(oneLine('  ls -la\n  /tmp  ')).toBe('ls -la /tmp');
  });

  it('cuts long text to maxChars, ellipsis included, without a space before it', () => {
    expect(oneLine('abcd efgh', 6)).toBe('abcd…');
    expect(oneLine('x'.repeat(100))).toHaveLength(80);
  });

  it('never splits a surrogate pair', () => {
    expect(oneLine('ab😀cd', 4)).toBe('ab…');
  });
});

describe('headAndTail', () => {
  it('is undefined for text no longer than both ends', () => {
    expect(headAndTail('abcdef', 3, 3)).toBeUndefined();
  });

  it('keeps both ends and counts what lies between', () => {
    expect(headAndTail('abcdefghij', 3, 2)).toEqual({ head: 'abc', tail: 'ij', omitted: 5 });
  });

  it('moves each end to a line break when one is near', () => {
    const text = `${'a'.repeat(8)}\n${'b'.repeat(100)}\n${'c'.repeat(8)}`;
    expect(headAndTail(text, 10, 10)).toEqual({ head: 'a'.repeat(8), tail: 'c'.repeat(8), omitted: 102 });
  });

  it('never splits a surrogate pair, and the parts add up', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.nat(50), fc.nat(50), (text, h, t) => {
        const ends = headAndTail(text, h + 1, t + 1);
        if (!ends) return;
        expect(ends.head.length + ends.omitted + ends.tail.length).toBe(text.length);
        expect(text.startsWith(ends.head) && text.endsWith(ends.tail)).toBe(true);
        for (const part of [ends.head, ends.tail]) expect(part).toBe(Buffer.from(part).toString());
      }),
    );
  });
});
