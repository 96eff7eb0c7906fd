import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/conversation/message.js';
import { formatRecall, RECALL_MAX_CHARS, searchHistory } from '../../src/conversation/recall-search.js';

const message = (id: number, role: Message['role'], content: string): Message => ({
  id,
  turn: id,
  role,
  content,
  at: `2026-01-0${(id % 9) + 1}T10:00:00.000Z`,
});

const trace = Array.from({ length: 200 }, (_, i) =>
  i === 117
    ? '    at PaymentsClient.charge (src/payments/client.ts:431:17)'
    : `    at frame${i} (node:internal/x.js:${i}:1)`,
).join('\n');

describe('searchHistory', () => {
  const transcript = [
    message(1, 'user', 'hello there'),
    message(2, 'user', `Here is the crash:\nTypeError: boom\n${trace}`),
    message(3, 'assistant', 'The charge failed in the payments client.'),
  ];

  it('finds a line in the middle of a paste verbatim, with its neighbours and where it is', () => {
    const { passages } = searchHistory(transcript, 'PaymentsClient.charge');
    expect(passages[0]).toEqual({
      number: 2,
      role: 'user',
      at: transcript[1].at,
      text: [
        '    at frame116 (node:internal/x.js:116:1)',
        '    at PaymentsClient.charge (src/payments/client.ts:431:17)',
        '    at frame118 (node:internal/x.js:118:1)',
      ].join('\n'),
    });
  });

  it('stays within its bound and says how many more matched', () => {
    const result = searchHistory(transcript, 'frame', 500);
    expect(result.passages.map((p) => p.text).join('').length).toBeLessThanOrEqual(500);
    expect(result.more).toBeGreaterThan(150);
    expect(formatRecall('frame', result)).toMatch(
      /\(\d+ more matching lines not shown: a more precise query narrows them\)$/,
    );
  });

  it('leaves out what earlier recalls returned: copies of the lines they found', () => {
    const first = formatRecall('PaymentsClient', searchHistory(transcript, 'PaymentsClient'));
    const result: Message = { ...message(4, 'tool', first), tool_name: 'recall' };
    const again = searchHistory([...transcript, result], 'PaymentsClient');
    expect(again.passages.map((p) => p.number)).toEqual([2]);
    expect(again.more).toBe(0);
  });

  it('says when nothing matches', () => {
    expect(formatRecall('zebra', searchHistory(transcript, 'zebra'))).toBe(
      'Nothing in this conversation matches "zebra".',
    );
  });

  it('returns only verbatim text of the messages, within the bound (property, fixed seed)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 400 }), { minLength: 1, maxLength: 20 }),
        fc.string({ minLength: 1, maxLength: 12 }),
        (texts, query) => {
          const messages = texts.map((t, i) => message(i, 'user', t));
          const { passages } = searchHistory(messages, query);
          expect(passages.reduce((n, p) => n + p.text.length, 0)).toBeLessThanOrEqual(RECALL_MAX_CHARS);
          for (const p of passages) expect(messages[p.number - 1].content).toContain(p.text);
        },
      ),
      { seed: 3305, numRuns: 300 },
    );
  });
});
