import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countPromptTokens, countTokens, fillerTokens, splitIntoTokens } from './emulator-tokens.js';

describe('countTokens', () => {
  it('is ceil(length / 4)', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('abcd')).toBe(1);
    expect(countTokens('abcde')).toBe(2);
  });
});

describe('countPromptTokens', () => {
  it('adds 4 per message to the content tokens', () => {
    const messages = [
      { role: 'system', content: 'abcdefgh' },
      { role: 'user', content: 'x' },
    ];
    expect(countPromptTokens(messages)).toBe(2 + 4 + 1 + 4);
  });

  it('counts a message without content (a tool-call-only assistant message) as its overhead', () => {
    expect(countPromptTokens([{ role: 'assistant' }])).toBe(4);
  });
});

describe('splitIntoTokens', () => {
  it('cuts 4-character pieces, the last one shorter', () => {
    expect(splitIntoTokens('Hello world')).toEqual(['Hell', 'o wo', 'rld']);
  });

  it('cuts larger pieces when asked (a huge reply streamed in 64 kB pieces)', () => {
    expect(splitIntoTokens('Hello world', 5)).toEqual(['Hello', ' worl', 'd']);
  });

  it('never splits a surrogate pair', () => {
    const pieces = splitIntoTokens('abc😀def');
    expect(pieces.join('')).toBe('abc😀def');
    for (const piece of pieces) expect(piece).toBe(Buffer.from(piece, 'utf8').toString('utf8'));
  });

  it('rejoins to the text, and for BMP text yields countTokens pieces of at most 4', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const pieces = splitIntoTokens(text);
        expect(pieces.join('')).toBe(text);
        expect(pieces.length).toBe(countTokens(text));
        for (const piece of pieces) expect(piece.length).toBeGreaterThan(0);
        for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(4);
      }),
    );
  });

  it('keeps any text intact, astral characters included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (text) => {
        expect(splitIntoTokens(text).join('')).toBe(text);
      }),
    );
  });
});

describe('fillerTokens', () => {
  it('makes exactly the asked number of 4-character pieces, with paragraphs', () => {
    const pieces = fillerTokens(200);
    expect(pieces).toHaveLength(200);
    for (const piece of pieces) expect(piece).toHaveLength(4);
    expect(countTokens(pieces.join(''))).toBe(200);
    expect(pieces.join('')).toContain('\n\n');
  });
});
