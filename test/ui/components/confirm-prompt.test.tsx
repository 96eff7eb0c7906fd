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
