import { describe, expect, it } from 'vitest';
import {
  INSTRUCTIONS_FOOTER,
  INSTRUCTIONS_HEADER,
  renderInstructionsSection,
} from '../../src/compaction/instructions-section.js';
import { buildModelView } from '../../src/compaction/model-view.js';
import { SUMMARY_HEADER } from '../../src/compaction/summary.js';
import type { CompactionRecord } from '../../src/conversation/compaction-record.js';

const record: CompactionRecord = {
  upto: 0,
  narrative: 'They talked.',
  toolEntries: [],
  model: 'm',
  at: '',
  tokensBefore: 0,
  tokensAfter: 0,
};

describe('renderInstructionsSection', () => {
  it('is nothing without files', () => {
    expect(renderInstructionsSection([])).toBeUndefined();
  });

  it('delimits the files, each under a line naming it, in the order given', () => {
    const section = renderInstructionsSection([
      { shown: '~/.config/ochat/AGENTS.md', content: 'Be brief.\n' },
      { shown: 'AGENTS.md', content: '\nUse tabs.\n\n' },
    ]);
    expect(section).toBe(
      `${INSTRUCTIONS_HEADER}\nFrom ~/.config/ochat/AGENTS.md:\nBe brief.\n\nFrom AGENTS.md:\nUse tabs.\n${INSTRUCTIONS_FOOTER}`,
    );
  });

  it('goes in the one system message, after the system prompt and before the summary', () => {
    const instructions = renderInstructionsSection([{ shown: 'AGENTS.md', content: 'Use tabs.' }]);
    const view = buildModelView({
      system: 'You are terse.',
      instructions,
      record,
      transcript: [{ id: 1, turn: 1, role: 'user', content: 'hi', at: '' }],
    });
    expect(view.map((m) => m.role)).toEqual(['system', 'user']);
    const system = view[0].content;
    expect(system.indexOf('You are terse.')).toBe(0);
    expect(system.indexOf(INSTRUCTIONS_HEADER)).toBeLessThan(system.indexOf(SUMMARY_HEADER));
    // Without a system prompt or summary they are the system message alone.
    expect(buildModelView({ instructions, transcript: [] })).toEqual([
      { role: 'system', content: instructions },
    ]);
  });
});
