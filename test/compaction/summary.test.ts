import { describe, expect, it } from 'vitest';
import { buildModelView } from '../../src/compaction/model-view.js';
import {
  assembleToolEntries,
  cleanNarrative,
  narrativeBudget,
  renderSummarySection,
  renderToolLog,
  SUMMARY_FOOTER,
  SUMMARY_HEADER,
  type SummaryContent,
  toolEntriesBudget,
  toolLogRoom,
} from '../../src/compaction/summary.js';
import { TOOL_ENTRIES_SHARE, toolEntryBullet } from '../../src/compaction/tool-entries.js';
import { estimateMessagesTokens, estimateTokens } from '../../src/conversation/token-estimate.js';

/** One token per ASCII character: every sum of parts is exact, so budgets can be checked to the token. */
const ascii = (s: string) => estimateTokens(s, 1);

/** How many tokens the summary section adds to a request (what the budget limits), on the model view. */
function sectionCost(content: SummaryContent, system?: string): number {
  const record = { ...content, upto: 0, model: 'm', at: '', tokensBefore: 0, tokensAfter: 0 };
  return (
    estimateMessagesTokens(buildModelView({ system, record, transcript: [] }), 1) -
    estimateMessagesTokens(buildModelView({ system, transcript: [] }), 1)
  );
}

/** Tool entries whose bullets cost exactly `tokens` (at one token a character), each under the entry cap. */
function entriesCosting(tokens: number): string[] {
  const entries: string[] = [];
  for (let left = tokens; left > 0; ) {
    const size = Math.min(left, 80);
    // A bullet shorter than its own prefix cannot be made: fold the rest into the previous entry.
    if (size < toolEntryBullet('x').length && entries.length) entries[entries.length - 1] += 'y'.repeat(size);
    else entries.push(`read_file: ${'a'.repeat(size - toolEntryBullet('read_file: ').length)}`);
    left -= size;
  }
  return entries;
}

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

describe('the summary as the model sees it', () => {
  it('is set apart from the system prompt by a blank line, between bracketed opening and closing lines', () => {
    const record = {
      narrative: 'N.',
      toolEntries: [],
      upto: 0,
      model: 'm',
      at: '',
      tokensBefore: 0,
      tokensAfter: 0,
    };
    const [system] = buildModelView({ system: 'You are helpful.', record, transcript: [] });
    const lines = system.content.split('\n');
    expect(lines.slice(0, 2)).toEqual(['You are helpful.', '']);
    expect(lines[2]).toMatch(/^\[Summary of the earlier conversation.*\]$/);
    expect(lines[3]).toBe('N.');
    expect(lines[4]).toMatch(/^\[End of summary.*\]$/);
    expect(lines).toHaveLength(5);
  });
});

describe('cleanNarrative', () => {
  it('drops thinking blocks and surrounding blank space', () => {
    expect(cleanNarrative('<think>\nhmm\n</think>\n\n The user is Ana.\n\n\n\nShe lives in Porto. ')).toBe(
      'The user is Ana.\n\nShe lives in Porto.',
    );
  });
});

describe('the summary budget', () => {
  const entries = ['read_file: read a.ts (lines 1–9 of 9)', 'search: 3 matches for "port"'];

  it('a narrative of exactly its budget makes the section cost exactly the summary budget, never more', () => {
    for (const toolEntries of [[], entries]) {
      const narrative = 'x'.repeat(narrativeBudget(500, toolEntries, ascii));
      // Without a system prompt the section is the system message and pays its overhead…
      expect(sectionCost({ narrative, toolEntries })).toBe(500);
      // …after one, it pays the separator: never more than the budget either way.
      expect(sectionCost({ narrative, toolEntries }, 'You are helpful.')).toBeLessThanOrEqual(500);
      expect(sectionCost({ narrative: `${narrative}x`, toolEntries })).toBe(501);
    }
  });

  it('the tool log may take all the narrative left: filled, the section costs exactly the budget', () => {
    const narrative = 'The user is Ana, from Porto.';
    const room = toolLogRoom(500, narrative, ascii);
    expect(sectionCost({ narrative, toolEntries: entriesCosting(room) })).toBe(500);
    // Over-long narratives leave the log no room, never a negative one.
    expect(toolLogRoom(100, 'x'.repeat(500), ascii)).toBe(0);
  });

  it("tool entries keep their exact lines within the log's 30% share of the section, and are folded past it", () => {
    const share = toolEntriesBudget(600, ascii);
    const content = 600 - sectionCost({ narrative: '', toolEntries: [] });
    const fitting = entriesCosting(share);
    expect(ascii(renderToolLog(fitting))).toBe(Math.floor(TOOL_ENTRIES_SHARE * content));
    expect(assembleToolEntries(fitting.slice(0, 1), fitting.slice(1), 600, ascii)).toEqual(fitting);
    const over = entriesCosting(share + 1);
    const merged = assembleToolEntries([], over, 600, ascii);
    expect(merged).not.toEqual(over);
    expect(ascii(renderToolLog(merged))).toBeLessThanOrEqual(TOOL_ENTRIES_SHARE * content);
    // A budget too small for the log's header leaves it nothing, never a negative share.
    expect(toolEntriesBudget(150, ascii)).toBe(0);
  });
});
