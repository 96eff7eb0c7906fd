import { describe, expect, it } from 'vitest';
import { fitNewestTurn, shortenToolOutput } from '../../src/compaction/fit-newest-turn.js';
import { buildModelView, toWireMessage } from '../../src/compaction/model-view.js';
import { estimateMessagesTokens } from '../../src/conversation/token-estimate.js';
import { buildTranscript, compactionRecord, text } from '../conversation/fixtures.js';

const transcript = buildTranscript([
  {
    user: 'old turn',
    steps: [{ tools: [{ name: 'read_file', output: text(8000, 'a'), summary: 'read old.ts' }] }],
  },
  {
    user: 'new turn',
    steps: [
      { tools: [{ name: 'read_file', output: text(8000, 'b'), summary: 'read big.ts (2000 lines)' }] },
      { tools: [{ name: 'run_command', output: text(4000, 'c') }] },
      { reply: 'done' },
    ],
  },
]);

describe('shortenToolOutput', () => {
  it('keeps the head and says what was cut, with the summary line', () => {
    expect(shortenToolOutput('abcdefghij', 'read_file: read x', 4)).toBe(
      'abcd\n… [output shortened to fit the context window, 6 chars omitted; summary: read_file: read x]',
    );
    expect(shortenToolOutput('abcdefghij', 'x was called.', 0)).toBe(
      '[output shortened to fit the context window, 10 chars omitted; summary: x was called.]',
    );
  });
});

describe('buildModelView with fit', () => {
  const fit = { numCtx: 3000, reserve: 500, charsPerToken: 4 };
  const record = compactionRecord(3);

  it('shortens the newest turn’s oldest tool outputs first, each to the longest head that fits', () => {
    let kept = -1;
    const view = buildModelView({
      system: 'sys',
      record,
      transcript,
      fit: { ...fit, onShortened: (_source, headChars) => (kept = headChars) },
    });
    const tools = view.filter((m) => m.role === 'tool');
    expect(tools[0].content).toMatch(
      /^b+\n… \[output shortened .*summary: read_file: read big\.ts \(2000 lines\)\]$/,
    );
    // Far more than a fixed head of 1,000 chars: all the room allows, and a char more would not fit.
    expect(kept).toBeGreaterThan(4000);
    expect(tools[0].content.startsWith('b'.repeat(kept))).toBe(true);
    const oneMore = shortenToolOutput(text(8000, 'b'), 'read_file: read big.ts (2000 lines)', kept + 1);
    const grown = view.map((m) => (m === tools[0] ? { ...m, content: oneMore } : m));
    expect(estimateMessagesTokens(grown, 4)).toBeGreaterThan(fit.numCtx - fit.reserve);
    // 8000 + 4000 chars ≈ 3000 tokens; shortening the first output alone makes room.
    expect(tools[1].content).toBe(text(4000, 'c'));
    expect(estimateMessagesTokens(view)).toBeLessThanOrEqual(fit.numCtx - fit.reserve);
  });

  it('falls back to summary lines alone when heads are too much', () => {
    const tight = { ...fit, numCtx: 1200, headChars: 2000 };
    const view = buildModelView({ system: 'sys', record, transcript, fit: tight });
    const tools = view.filter((m) => m.role === 'tool');
    expect(tools[0].content).toMatch(/^\[output shortened .*read big\.ts/);
    expect(estimateMessagesTokens(view)).toBeLessThanOrEqual(tight.numCtx - tight.reserve);
  });

  it('changes nothing when the newest turn fits, and leaves older turns to compaction', () => {
    const roomy = { ...fit, numCtx: 100_000 };
    expect(buildModelView({ transcript, fit: roomy })).toEqual(buildModelView({ transcript }));
    // Whole view over the room, but the newest turn alone fits: untouched.
    const newestFits = { numCtx: 4200, reserve: 0, charsPerToken: 4 };
    const view = buildModelView({ transcript, fit: newestFits });
    expect(view).toEqual(buildModelView({ transcript }));
    expect(estimateMessagesTokens(view)).toBeGreaterThan(newestFits.numCtx);
  });
});

describe('fitNewestTurn', () => {
  const newest = transcript.slice(3);
  const tail = newest.map((m) => toWireMessage(m));
  const fitted = (room: number, head: { role: 'system'; content: string }[] = []) =>
    fitNewestTurn({ head, tail, sources: newest, room, charsPerToken: 4 });

  it('leaves a turn that exactly fits untouched, and shortens one a token over', () => {
    const exact = estimateMessagesTokens(tail, 4);
    expect(fitted(exact)).toEqual(tail);
    expect(fitted(exact - 1)).not.toEqual(tail);
  });

  it('counts the head against the room', () => {
    const exact = estimateMessagesTokens(tail, 4);
    const head = [{ role: 'system' as const, content: text(400, 's') }];
    expect(fitted(exact, head)).not.toEqual(tail);
    expect(fitted(exact + estimateMessagesTokens(head, 4), head)).toEqual(tail);
  });

  it('shortens only tool outputs, and never replaces a short one by a longer note', () => {
    const messages = buildTranscript([
      {
        user: text(4000, 'u'),
        steps: [{ tools: [{ name: 'get_time', output: 'noon' }] }, { reply: text(2000, 'r') }],
      },
    ]);
    const wire = messages.map((m) => toWireMessage(m));
    const out = fitNewestTurn({ head: [], tail: wire, sources: messages, room: 10, charsPerToken: 4 });
    expect(out).toEqual(wire);
  });

  it('without a user message in the tail there is no newest turn to fit', () => {
    const orphans = newest.filter((m) => m.role !== 'user');
    const wire = orphans.map((m) => toWireMessage(m));
    expect(fitNewestTurn({ head: [], tail: wire, sources: orphans, room: 10, charsPerToken: 4 })).toEqual(
      wire,
    );
  });
});

describe('shortenToolOutput: the head', () => {
  it('keeps the head as it starts, trimming only its end', () => {
    expect(shortenToolOutput('  ab  cdef', 'x was called.', 6)).toBe(
      '  ab\n… [output shortened to fit the context window, 6 chars omitted; summary: x was called.]',
    );
  });
});
