import { describe, expect, it } from 'vitest';
import type { Budgets } from '../../src/compaction/budgets.js';
import { contextBreakdown } from '../../src/compaction/context-breakdown.js';
import { renderInstructionsSection } from '../../src/compaction/instructions-section.js';
import { buildModelView } from '../../src/compaction/model-view.js';
import { renderToolLog } from '../../src/compaction/summary.js';
import type { CompactionRecord } from '../../src/conversation/compaction-record.js';
import { estimateMessagesTokens, estimateTokens } from '../../src/conversation/token-estimate.js';
import { buildTranscript, text } from '../conversation/fixtures.js';

const budgets: Budgets = { reserve: 1000, keepRecent: 2000, summary: 800, numCtx: 10_000, scaled: false };
const transcript = buildTranscript([
  { user: text(400), steps: [{ tools: [{ name: 'read_file', output: text(800), summary: 'read a.ts' }] }] },
  { user: text(400), steps: [{ reply: text(1200) }] },
]);
const record: CompactionRecord = {
  upto: 3,
  narrative: text(2000, 'n'),
  toolEntries: ['read_file: read a.ts'],
  model: 'm',
  at: '',
  tokensBefore: 0,
  tokensAfter: 0,
};

describe('contextBreakdown', () => {
  it('splits an uncompacted view into system, tail, reserve and free', () => {
    const { rows, numCtx } = contextBreakdown({
      system: text(400, 's'),
      transcript,
      budgets,
      charsPerToken: 4,
    });
    expect(numCtx).toBe(10_000);
    // System: 400 chars = 100 tokens, plus the 4-token message overhead.
    const tail = estimateMessagesTokens(buildModelView({ transcript }), 4);
    expect(rows).toEqual([
      { label: 'system', tokens: 104, percent: 1 },
      { label: 'summary', tokens: 0, percent: 0 },
      { label: 'tool entries', tokens: 0, percent: 0 },
      { label: 'tool definitions', tokens: 0, percent: 0 },
      { label: 'verbatim tail', tokens: tail, percent: Math.round(tail / 10) / 10 },
      { label: 'reserve', tokens: 1000, percent: 10 },
      {
        label: 'free',
        tokens: 10_000 - 104 - tail - 1000,
        percent: Math.round((10_000 - 104 - tail - 1000) / 10) / 10,
      },
    ]);
  });

  it('separates the summary narrative from the tool entries; the parts add up to the view', () => {
    const { rows } = contextBreakdown({
      system: text(400, 's'),
      record,
      transcript,
      budgets,
      charsPerToken: 4,
    });
    const byLabel = Object.fromEntries(rows.map((r) => [r.label, r.tokens]));
    const view = estimateMessagesTokens(buildModelView({ system: text(400, 's'), record, transcript }), 4);
    expect(byLabel.system).toBe(104);
    expect(byLabel['tool entries']).toBe(estimateTokens(renderToolLog(record.toolEntries), 4));
    expect(byLabel.summary).toBeGreaterThanOrEqual(500);
    expect(byLabel['verbatim tail']).toBe(
      estimateMessagesTokens(buildModelView({ transcript: transcript.slice(3) }), 4),
    );
    expect(byLabel.system + byLabel.summary + byLabel['tool entries'] + byLabel['verbatim tail']).toBe(view);
    expect(byLabel.free).toBe(10_000 - view - 1000);
  });

  it('counts the tool definitions on their own line, and the parts add up to the meter figure', () => {
    const view = estimateMessagesTokens(buildModelView({ system: text(400, 's'), transcript }), 4);
    const byLabel = (used?: number) =>
      Object.fromEntries(
        contextBreakdown({
          system: text(400, 's'),
          transcript,
          budgets,
          charsPerToken: 4,
          toolDefinitionTokens: 566,
          used,
        }).rows.map((r) => [r.label, r.tokens]),
      );
    const estimated = byLabel();
    expect(estimated['tool definitions']).toBe(566);
    expect(estimated.free).toBe(10_000 - view - 566 - 1000);
    // One source of truth: given the meter's figure, the rows add up to it (the tail takes the difference).
    const counted = byLabel(view + 566 + 300);
    expect(
      counted.system +
        counted.summary +
        counted['tool entries'] +
        counted['tool definitions'] +
        counted['verbatim tail'],
    ).toBe(view + 566 + 300);
    expect(counted.free).toBe(10_000 - view - 566 - 300 - 1000);
  });

  it('still adds up to the meter figure when the server counted less than the parts estimated', () => {
    const rows = contextBreakdown({
      system: text(400, 's'),
      transcript,
      budgets,
      charsPerToken: 4,
      toolDefinitionTokens: 566,
      used: 616,
    }).rows;
    const parts = rows.filter((r) => r.label !== 'reserve' && r.label !== 'free');
    expect(parts.reduce((sum, r) => sum + r.tokens, 0)).toBe(616);
    expect(parts.find((r) => r.label === 'verbatim tail')?.tokens).toBe(0);
    expect(parts.every((r) => r.tokens >= 0)).toBe(true);
  });

  it('shows no free room when the view and reserve overflow the window', () => {
    const tiny = { ...budgets, numCtx: 500 };
    const { rows } = contextBreakdown({ transcript, budgets: tiny, charsPerToken: 4 });
    expect(rows.find((r) => r.label === 'free')?.tokens).toBe(0);
    expect(rows.find((r) => r.label === 'system')?.tokens).toBe(0);
  });
});

describe('contextBreakdown: stray system messages and odd windows', () => {
  it('counts a stray system message in the tail under system, not summary, once compacted', () => {
    const stray = { id: 99, turn: 2, role: 'system' as const, content: text(200, 'y'), at: '' };
    const withStray = [...transcript.slice(0, 3), stray, ...transcript.slice(3)];
    const { rows } = contextBreakdown({
      system: text(400, 's'),
      record,
      transcript: withStray,
      budgets,
      charsPerToken: 4,
    });
    const byLabel = Object.fromEntries(rows.map((r) => [r.label, r.tokens]));
    // System prompt and stray share one system message: 400 + 2 (separator) + 200 chars.
    expect(byLabel.system).toBe(
      estimateMessagesTokens(buildModelView({ system: text(400, 's'), transcript: [stray] }), 4),
    );
    expect(byLabel.system).toBeGreaterThan(104 + 40);
    // A stray before the compaction boundary is summarized history: not in the system row.
    const early = [stray, ...transcript];
    const shifted = { ...record, upto: record.upto + 1 };
    const before = contextBreakdown({
      system: text(400, 's'),
      record: shifted,
      transcript: early,
      budgets,
      charsPerToken: 4,
    });
    expect(before.rows[0]).toEqual({ label: 'system', tokens: 104, percent: 1 });
  });

  it('without any system message, the system row is empty', () => {
    const { rows } = contextBreakdown({ transcript, budgets, charsPerToken: 4 });
    expect(rows[0]).toEqual({ label: 'system', tokens: 0, percent: 0 });
  });

  it('gives 0% rather than dividing by a zero window', () => {
    const { rows } = contextBreakdown({ transcript, budgets: { ...budgets, numCtx: 0 }, charsPerToken: 4 });
    for (const row of rows) expect(Number.isFinite(row.percent)).toBe(true);
    expect(rows.every((row) => row.percent === 0)).toBe(true);
  });
});

describe('contextBreakdown: instruction files', () => {
  const instructions = renderInstructionsSection([{ shown: 'AGENTS.md', content: text(800, 'i') }]);

  it('gives them a row of their own, between the system prompt and the summary, and the rows still add up', () => {
    const plain = contextBreakdown({ system: text(400, 's'), record, transcript, budgets, charsPerToken: 4 });
    const withThem = contextBreakdown({
      system: text(400, 's'),
      instructions,
      record,
      transcript,
      budgets,
      charsPerToken: 4,
    });
    const labels = withThem.rows.map((row) => row.label);
    expect(labels.slice(0, 3)).toEqual(['system', 'instructions', 'summary']);
    const tokens = (rows: typeof withThem.rows, label: string) => rows.find((r) => r.label === label)?.tokens;
    expect(tokens(withThem.rows, 'system')).toBe(tokens(plain.rows, 'system'));
    // One token either way: the system message is estimated whole, its parts by difference.
    expect(
      Math.abs((tokens(withThem.rows, 'summary') ?? 0) - (tokens(plain.rows, 'summary') ?? 0)),
    ).toBeLessThanOrEqual(1);
    expect(tokens(withThem.rows, 'instructions')).toBeGreaterThanOrEqual(
      estimateTokens(instructions ?? '', 4),
    );
    expect(tokens(withThem.rows, 'instructions')).toBeLessThanOrEqual(
      estimateTokens(instructions ?? '', 4) + 2,
    );
    const view = buildModelView({ system: text(400, 's'), instructions, record, transcript });
    const sum = withThem.rows.slice(0, -2).reduce((a, r) => a + r.tokens, 0);
    expect(sum).toBe(estimateMessagesTokens(view, 4));
  });

  it('has no row without them', () => {
    const { rows } = contextBreakdown({ system: 'be brief', transcript, budgets, charsPerToken: 4 });
    expect(rows.map((row) => row.label)).not.toContain('instructions');
  });
});
