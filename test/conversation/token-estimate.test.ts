import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CHARS_PER_TOKEN,
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTokens,
  estimateToolDefinitionsTokens,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  weightedLength,
} from '../../src/conversation/token-estimate.js';

describe('weightedLength', () => {
  it('counts UTF-8 bytes: ASCII once, 2-byte scripts twice, CJK three times, emoji four', () => {
    expect(weightedLength('abc')).toBe(3);
    expect(weightedLength('é')).toBe(2);
    expect(weightedLength('Привет')).toBe(12);
    expect(weightedLength('日本語')).toBe(9);
    expect(weightedLength('😀')).toBe(4);
    expect(weightedLength('')).toBe(0);
  });
});

describe('estimateTokens', () => {
  it('divides weighted chars by chars-per-token, rounding up', () => {
    expect(DEFAULT_CHARS_PER_TOKEN).toBe(4);
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('abcd', 2)).toBe(2);
    expect(estimateTokens('日本語')).toBe(3);
    expect(estimateTokens('a'.repeat(100), 3.3)).toBe(31);
  });

  it('falls back to the default ratio when given a corrupt one', () => {
    expect(estimateTokens('abcdefgh', 0)).toBe(2);
    expect(estimateTokens('abcdefgh', Number.NaN)).toBe(2);
    expect(estimateTokens('abcdefgh', -3)).toBe(2);
  });

  it('is subadditive and monotone (the budget arithmetic relies on both)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.double({ min: 1, max: 8, noNaN: true }), (a, b, cpt) => {
        const whole = estimateTokens(a + b, cpt);
        expect(whole).toBeLessThanOrEqual(estimateTokens(a, cpt) + estimateTokens(b, cpt));
        expect(whole).toBeGreaterThanOrEqual(estimateTokens(a, cpt));
      }),
    );
  });
});

describe('estimateMessageTokens', () => {
  it('adds the template overhead to the text', () => {
    expect(MESSAGE_OVERHEAD_TOKENS).toBe(4);
    expect(estimateMessageTokens({ role: 'user', content: 'abcdefgh' })).toBe(6);
    expect(estimateMessageTokens({ role: 'assistant', content: '' })).toBe(4);
  });

  it('counts tool calls as name plus JSON arguments, tool names, and images at a fixed cost', () => {
    const call = { function: { name: 'f', arguments: { a: 1 } } };
    // 'f' + '{"a":1}' = 8 chars = 2 tokens.
    expect(estimateMessageTokens({ role: 'assistant', content: '', tool_calls: [call] })).toBe(6);
    // 'read' (4) + 'abcd' (4) = 2 tokens.
    expect(estimateMessageTokens({ role: 'tool', tool_name: 'read', content: 'abcd' })).toBe(6);
    expect(estimateMessageTokens({ role: 'user', content: 'abcd', images: ['aGVsbG8=', 'eA=='] })).toBe(
      5 + 2 * IMAGE_TOKENS,
    );
  });

  it('ignores thinking, which is never sent', () => {
    const message = { role: 'assistant' as const, content: 'abcd', thinking: 'x'.repeat(1000) };
    expect(estimateMessageTokens(message)).toBe(5);
  });
});

describe('estimateMessagesTokens', () => {
  it('sums the messages', () => {
    const messages = [
      { role: 'system' as const, content: 'abcd' },
      { role: 'user' as const, content: 'abcdefgh' },
    ];
    expect(estimateMessagesTokens(messages)).toBe(11);
    expect(estimateMessagesTokens(messages, 1)).toBe(20);
    expect(estimateMessagesTokens([])).toBe(0);
  });
});

describe('estimateToolDefinitionsTokens', () => {
  it('costs nothing without tools, and the weighted JSON over chars-per-token otherwise', () => {
    expect(estimateToolDefinitionsTokens([])).toBe(0);
    const tools = [{ type: 'function', function: { name: 'read_file', description: 'Read a file' } }];
    const length = weightedLength(JSON.stringify(tools));
    expect(estimateToolDefinitionsTokens(tools, 4)).toBe(Math.ceil(length / 4));
    expect(estimateToolDefinitionsTokens(tools, 2)).toBe(Math.ceil(length / 2));
    expect(estimateToolDefinitionsTokens(tools, Number.NaN)).toBe(
      Math.ceil(length / DEFAULT_CHARS_PER_TOKEN),
    );
  });
});
