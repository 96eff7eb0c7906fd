import { describe, expect, it } from 'vitest';
import type { Ask } from '../../src/compaction/ask.js';
import type { Budgets } from '../../src/compaction/budgets.js';
import { compactConversation } from '../../src/compaction/compactor.js';
import { IN_PARTS_NOTE } from '../../src/compaction/long-messages.js';
import { formatCompactionReport } from '../../src/compaction/report.js';
import { MESSAGES_CLOSE, MESSAGES_OPEN } from '../../src/compaction/summarizer-prompt.js';
import { buildTranscript } from '../conversation/fixtures.js';

const budgets: Budgets = { reserve: 409, keepRecent: 614, summary: 204, numCtx: 2048, scaled: false };

/** A 2,000-line log whose line 1,000 holds the fact. */
const log = Array.from({ length: 2000 }, (_, i) =>
  i === 999 ? 'FACT-P1 the paste secret is kiwi' : `2026-12-03 12:00:00 INFO worker ${i + 1} finished`,
).join('\n');

/** A summarizer that keeps every fact it is shown (the previous summary and the new lines). */
function keepingFacts(): { ask: Ask; prompts: string[] } {
  const prompts: string[] = [];
  const ask: Ask = async ({ prompt }) => {
    prompts.push(prompt);
    const facts = [...new Set(prompt.match(/FACT-\w+/g) ?? [])];
    return { text: `Summary. ${facts.join(' ')}`.trim(), cutOff: false };
  };
  return { ask, prompts };
}

const transcript = buildTranscript([
  { user: 'FACT-U1 my name is Ada', steps: [{ reply: 'Noted.' }] },
  { user: `look at this log:\n${log}`, steps: [{ reply: 'A long log.' }] },
  {
    user: 'read it',
    steps: [
      {
        tools: [
          {
            name: 'read_file',
            output: `${'filler line\n'.repeat(800)}FACT-T1 in the output\n${'more\n'.repeat(800)}`,
            summary: 'read big.txt (1601 lines)',
          },
        ],
      },
      { reply: 'Read.' },
    ],
  },
  { user: 'and now?', steps: [{ reply: 'Now.' }] },
]);

function compact(ask: Ask, cutLongMessages = false) {
  return compactConversation({
    transcript,
    budgets,
    system: 'You are helpful.',
    ask,
    summarizerNumCtx: 2048,
    model: 'm',
    maxMessageChars: 1000,
    cutLongMessages,
    charsPerToken: 4,
    now: () => new Date(0),
  });
}

describe('condensing long messages before the fold', () => {
  it('condenses a paste and a tool output on their own, in parts that fit the window; their facts reach the summary', async () => {
    const { ask, prompts } = keepingFacts();
    const outcome = await compact(ask);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    expect(outcome.record.narrative).toContain('FACT-P1');
    expect(outcome.record.narrative).toContain('FACT-T1');
    expect(outcome.record.narrative).toContain('FACT-U1');
    const [paste, output] = outcome.result.condensed ?? [];
    expect(paste.label).toMatch(/^a \d+ kB paste$/);
    expect(output.label).toMatch(/^a \d+(\.\d)? kB read_file output$/);
    expect(paste.parts).toBeGreaterThan(5);
    // One request per part, plus the fold: every line of the paste was in one of them.
    const partRequests = prompts.filter((p) => p.includes(IN_PARTS_NOTE) || !p.includes('FACT-U1 my name'));
    expect(partRequests.length).toBeGreaterThanOrEqual(paste.parts);
    const seen = prompts.join('\n');
    for (const line of log.split('\n')) expect(seen).toContain(line);
    for (const prompt of prompts) {
      const lines = prompt.slice(prompt.indexOf(MESSAGES_OPEN), prompt.indexOf(MESSAGES_CLOSE));
      expect(lines.length / 4).toBeLessThan(2048);
    }
    expect(formatCompactionReport(outcome.result)).toMatch(
      new RegExp(
        `^Compacted \\d+ messages \\(a \\d+ kB paste condensed in ${paste.parts} parts, a [\\d.]+ kB read_file output in ${output.parts} parts?\\): `,
      ),
    );
  });

  it('with cut_long_messages, cuts them to their head instead, and the report names each and what was never seen', async () => {
    const { ask, prompts } = keepingFacts();
    const outcome = await compact(ask, true);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    expect(prompts).toHaveLength(1);
    expect(outcome.record.narrative).not.toContain('FACT-P1');
    expect(outcome.result.cutMessages?.map((m) => m.index)).toEqual([2, 6]);
    expect(formatCompactionReport(outcome.result)).toMatch(
      /; cut to their head for the summarizer \(compaction\.cut_long_messages\): \[2\] a \d+ kB paste, [\d,]+ of [\d,]+ chars unseen; \[6\] a [\d.]+ kB read_file output, [\d,]+ of [\d,]+ chars unseen$/,
    );
  });
});
