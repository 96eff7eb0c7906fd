import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildModelView } from '../../src/compaction/model-view.js';
import {
  assembleSummary,
  cleanNarrative,
  renderSummarySection,
  SUMMARY_FOOTER,
  SUMMARY_HEADER,
  TRIM_MARKER,
  toolEntriesBudget,
  trimNarrative,
} from '../../src/compaction/summary.js';
import { TOOL_ENTRIES_SHARE, toolEntryBullet } from '../../src/compaction/tool-entries.js';
import { estimateMessagesTokens, estimateTokens } from '../../src/conversation/token-estimate.js';

const length = (s: string) => s.length;

describe('renderSummarySection', () => {
  it('delimits the narrative and the tool log', () => {
    expect(renderSummarySection({ narrative: 'N.', toolEntries: ['a', 'b'] })).toBe(
      `${SUMMARY_HEADER}\nN.\n\nTool calls made earlier, oldest first:\n- a\n- b\n${SUMMARY_FOOTER}`,
    );
    expect(renderSummarySection({ narrative: 'N.', toolEntries: [] })).toBe(
      `${SUMMARY_HEADER}\nN.\n${SUMMARY_FOOTER}`,
    );
  });
});

describe('trimNarrative', () => {
  it('leaves a narrative within budget alone', () => {
    expect(trimNarrative('short', 5, length)).toBe('short');
  });

  it('cuts at a sentence boundary, with a marker', () => {
    const text = 'First sentence. Second sentence. Third one here.';
    expect(trimNarrative(text, 30, length)).toBe(`First sentence.${TRIM_MARKER}`);
  });

  it('prefers a line break, and cuts mid-text when no boundary is near', () => {
    expect(trimNarrative('- one\n- two\n- three', 16, length)).toBe(`- one\n- two${TRIM_MARKER}`);
    expect(trimNarrative('abcdefghijklmnop', 10, length)).toBe(`abcdef${TRIM_MARKER}`);
  });

  it('returns nothing when not even the marker fits', () => {
    expect(trimNarrative('abcdefgh', 3, length)).toBe('');
    expect(trimNarrative('abcdefgh', -5, length)).toBe('');
  });

  it('is never larger than its budget', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 3000 }),
        fc.integer({ min: -10, max: 800 }),
        fc.double({ min: 1, max: 8, noNaN: true }),
        (text, max, cpt) => {
          const estimate = (s: string) => estimateTokens(s, cpt);
          const trimmed = trimNarrative(text, max, estimate);
          expect(estimate(trimmed)).toBeLessThanOrEqual(Math.max(0, max));
          if (estimate(text) <= max) expect(trimmed).toBe(text);
        },
      ),
    );
  });
});

describe('cleanNarrative', () => {
  it('drops thinking blocks and surrounding blank space', () => {
    expect(cleanNarrative('<think>\nhmm\n</think>\n\n The user is Ana.\n\n\n\nShe lives in Porto. ')).toBe(
      'The user is Ana.\n\nShe lives in Porto.',
    );
  });
});

describe('assembleSummary', () => {
  it('keeps the narrative and entries when they fit', () => {
    const estimate = (s: string) => estimateTokens(s, 4);
    expect(
      assembleSummary({
        narrative: ' The user is Ana. ',
        previousEntries: ['read_file: a'],
        addedEntries: ['search: b'],
        summaryTokens: 500,
        estimate,
      }),
    ).toEqual({ narrative: 'The user is Ana.', toolEntries: ['read_file: a', 'search: b'] });
  });

  it('grows the system message by at most the summary budget, tool entries within their share', () => {
    const entries = fc.array(
      fc.string({ maxLength: 80 }).map((s) => `read_file: ${s}`),
      { maxLength: 60 },
    );
    let checked = 0;
    fc.assert(
      fc.property(
        fc.string({ maxLength: 6000 }).map((s) => `Fact: ${s}`),
        entries,
        entries,
        fc.integer({ min: 60, max: 3000 }),
        fc.double({ min: 1, max: 8, noNaN: true }),
        fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
        (narrative, previousEntries, addedEntries, summaryTokens, cpt, system) => {
          const estimate = (s: string) => estimateTokens(s, cpt);
          const content = assembleSummary({
            narrative,
            previousEntries,
            addedEntries,
            summaryTokens,
            estimate,
          });
          // An empty narrative is rejected by the compactor: no section is ever built from it.
          if (!content.narrative) return;
          checked++;
          const record = { ...content, upto: 0, model: 'm', at: '', tokensBefore: 0, tokensAfter: 0 };
          const withSummary = estimateMessagesTokens(buildModelView({ system, record, transcript: [] }), cpt);
          const without = estimateMessagesTokens(buildModelView({ system, transcript: [] }), cpt);
          expect(withSummary - without).toBeLessThanOrEqual(summaryTokens);
          const toolCost = content.toolEntries.reduce((sum, e) => sum + estimate(toolEntryBullet(e)), 0);
          expect(toolCost).toBeLessThanOrEqual(toolEntriesBudget(summaryTokens, estimate));
          expect(toolCost).toBeLessThanOrEqual(TOOL_ENTRIES_SHARE * summaryTokens);
        },
      ),
    );
    expect(checked).toBeGreaterThan(50);
  });
});
