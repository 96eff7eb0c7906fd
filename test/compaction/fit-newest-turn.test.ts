import { describe, expect, it } from 'vitest';
import { shortenToolOutput } from '../../src/compaction/fit-newest-turn.js';
import { buildModelView } from '../../src/compaction/model-view.js';
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

  it('shortens the newest turn’s oldest tool outputs first, until the turn fits', () => {
    const view = buildModelView({ system: 'sys', record, transcript, fit });
    const tools = view.filter((m) => m.role === 'tool');
    expect(tools[0].content).toMatch(
      /^b{1000}\n… \[output shortened .*summary: read_file: read big\.ts \(2000 lines\)\]$/,
    );
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
