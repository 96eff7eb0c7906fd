import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ConfirmPrompt } from '../../../src/ui/components/confirm-prompt.js';

describe('ConfirmPrompt', () => {
  it('shows the question and its choices', () => {
    const { lastFrame, unmount } = render(<ConfirmPrompt question="Retry compaction?" />);
    expect(lastFrame()).toBe('? Retry compaction? (y/n)');
    unmount();
  });

  it('accepts other choices', () => {
    const { lastFrame, unmount } = render(<ConfirmPrompt question="Overwrite?" choices="y/N" />);
    expect(lastFrame()).toBe('? Overwrite? (y/N)');
    unmount();
  });
});

describe('ConfirmPrompt with a preview', () => {
  const preview = {
    title: 'changes 1 line added, 1 line removed',
    lines: [
      { kind: 'hunk' as const, text: '@@ -1,2 +1,2 @@' },
      { kind: 'context' as const, text: 'keep' },
      { kind: 'remove' as const, text: 'old\x1b[2Jline' },
      { kind: 'add' as const, text: `new ${'x'.repeat(200)}` },
    ],
    more: 7,
  };

  it('shows the title and the diff lines, control characters visible, long lines cut to one row', () => {
    const { lastFrame, unmount } = render(
      <ConfirmPrompt question="Allow write_file a.md?" choices="y/n" preview={preview} />,
    );
    const lines = (lastFrame() ?? '').split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '? Allow write_file a.md? (y/n)',
      '  changes 1 line added, 1 line removed',
      '  @@ -1,2 +1,2 @@',
      '   keep',
      '  -old␛[2Jline',
    ]);
    expect(lines[5]).toMatch(/^ {2}\+new x+…$/);
    expect(lines[5].length).toBeLessThanOrEqual(100);
    expect(lines[6]).toBe('  … 7 more lines');
    unmount();
  });

  it('shows as many lines as it may, and counts the rest', () => {
    const { lastFrame, unmount } = render(
      <ConfirmPrompt question="Allow?" preview={preview} maxPreviewLines={2} />,
    );
    expect((lastFrame() ?? '').split('\n').slice(1)).toEqual([
      '  changes 1 line added, 1 line removed',
      '  @@ -1,2 +1,2 @@',
      '   keep',
      '  … 9 more lines',
    ]);
    unmount();
  });
});
