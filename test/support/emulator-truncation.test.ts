import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countPromptTokens } from './emulator-tokens.js';
import { fitToContext } from './emulator-truncation.js';
import type { ChatMessageLike } from './emulator-types.js';

const message = fc.record({
  role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
  content: fc.string({ maxLength: 120 }),
});

/** Tags each message with its position so identity survives the copy. */
function numbered(messages: { role: string; content: string }[]): ChatMessageLike[] {
  return messages.map((m, i) => ({ ...m, index: i }));
}

describe('fitToContext', () => {
  it('leaves a prompt that fits alone', () => {
    const messages = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ];
    expect(fitToContext(messages, 100)).toEqual({
      kept: messages,
      promptEvalCount: countPromptTokens(messages),
      truncated: false,
    });
  });

  it('drops the oldest non-system messages and keeps the system prompt and the last message', () => {
    const messages = [
      { role: 'system', content: 'S'.repeat(40) },
      { role: 'user', content: 'A'.repeat(40) },
      { role: 'assistant', content: 'B'.repeat(40) },
      { role: 'user', content: 'C'.repeat(40) },
    ];
    const fitted = fitToContext(messages, 30);
    expect(fitted.kept.map((m) => m.content?.[0])).toEqual(['S', 'C']);
    expect(fitted.truncated).toBe(true);
    expect(fitted.promptEvalCount).toBe(28);
  });

  it('caps the count at num_ctx when system and last message alone are too big', () => {
    const messages = [
      { role: 'system', content: 'S'.repeat(400) },
      { role: 'user', content: 'old' },
      { role: 'user', content: 'U'.repeat(400) },
    ];
    const fitted = fitToContext(messages, 50);
    expect(fitted.kept.map((m) => m.role)).toEqual(['system', 'user']);
    expect(fitted.promptEvalCount).toBe(50);
    expect(fitted.truncated).toBe(true);
  });

  it('keeps every system message, the last message, and a suffix of the others, in order', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 800 }),
        (raw, numCtx) => {
          const messages = numbered(raw);
          const { kept, promptEvalCount, truncated } = fitToContext(messages, numCtx);
          const last = messages[messages.length - 1];
          expect(kept[kept.length - 1]).toBe(last);
          for (const m of messages) if (m.role === 'system') expect(kept).toContain(m);
          const indexes = kept.map((m) => m.index as number);
          expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
          // The dropped ones are all older than every kept non-system message.
          const keptOthers = kept.filter((m) => m.role !== 'system' && m !== last);
          const dropped = messages.filter((m) => !kept.includes(m));
          const oldestKept = Math.min(...keptOthers.map((m) => m.index as number), last.index as number);
          for (const m of dropped) expect(m.index as number).toBeLessThan(oldestKept);
          expect(promptEvalCount).toBeLessThanOrEqual(Math.max(numCtx, 0));
          expect(truncated).toBe(dropped.length > 0 || countPromptTokens(messages) > numCtx);
          if (!truncated) expect(promptEvalCount).toBe(countPromptTokens(messages));
        },
      ),
    );
  });
});
