import { describe, expect, it } from 'vitest';
import { shownToolSummary, toolLine } from '../../src/ui/tool-line.js';

describe('shownToolSummary', () => {
  it('leaves out the mark and the repeated command, keeping the reason', () => {
    expect(shownToolSummary('rm a.txt', '❌ rm a.txt (declined by the user)')).toBe('declined by the user');
    expect(shownToolSummary('ls', '✅ ls (exit 0)')).toBe('exit 0');
  });

  it('keeps a summary that says more than the argument', () => {
    expect(shownToolSummary('a.ts', 'read a.ts (lines 1–3 of 3)')).toBe('read a.ts (lines 1–3 of 3)');
    expect(shownToolSummary('a.ts', '❌ read a.ts (file not found)')).toBe('read a.ts (file not found)');
    expect(shownToolSummary('', '❌')).toBe('❌');
  });
});

describe('toolLine', () => {
  it('is one plain line, with no double space without an argument', () => {
    expect(
      toolLine({ ok: false, name: 'run_command', keyArgument: 'rm a', summary: '❌ rm a (cancelled)' }),
    ).toBe('✗ run_command rm a — cancelled');
    expect(toolLine({ ok: true, name: 'get_time', keyArgument: '', summary: 'the time' })).toBe(
      '⚙ get_time — the time',
    );
  });

  it('a malformed call, with no name, is its summary alone', () => {
    expect(
      toolLine({
        ok: false,
        name: '',
        keyArgument: '',
        summary: '❌ malformed call (the tool name is missing)',
      }),
    ).toBe('✗ malformed call (the tool name is missing)');
  });
});
