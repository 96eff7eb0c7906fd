import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { PromptInput } from '../../../src/ui/components/prompt-input.js';
import { createEditorState, type EditorAction, editorReducer } from '../../../src/ui/input/editor-state.js';

const COMMANDS = [
  { name: 'compact', aliases: [], summary: 'Compact the conversation now', usage: '/compact' },
  { name: 'context', aliases: ['ctx'], summary: 'Show context usage', usage: '/context' },
  { name: 'help', aliases: ['h'], summary: 'List commands', usage: '/help' },
];

function stateAfter(...actions: EditorAction[]) {
  return actions.reduce(editorReducer, createEditorState({ commands: COMMANDS }));
}

function frameOf(element: React.ReactElement): string {
  const { lastFrame, unmount } = render(element);
  const frame = lastFrame() ?? '';
  unmount();
  return frame;
}

describe('PromptInput', () => {
  it('shows the placeholder while empty', () => {
    expect(frameOf(<PromptInput state={stateAfter()} placeholder="Ask anything" />)).toBe('›  Ask anything');
  });

  it('renders a multi-line input with the prompt on the first line and blank lines kept', () => {
    const state = stateAfter({ type: 'insert', text: 'first\n\nthird' });
    // Ink trims trailing spaces from rows; the blank line still takes its row.
    expect(frameOf(<PromptInput state={state} />)).toBe('› first\n\n  third');
  });

  it('lists matching slash commands with their one-line help and aliases', () => {
    const frame = frameOf(<PromptInput state={stateAfter({ type: 'insert', text: '/c' })} />);
    expect(frame.split('\n')).toEqual([
      '› /c',
      '  /compact  Compact the conversation now',
      '  /context  Show context usage (/ctx)',
    ]);
  });

  it('keeps the list while cycling and says how many are hidden', () => {
    const state = stateAfter({ type: 'insert', text: '/' }, { type: 'complete' });
    const frame = frameOf(<PromptInput state={state} maxCompletions={2} />);
    expect(frame.split('\n')).toEqual([
      '› /compact',
      '  /compact  Compact the conversation now',
      '  /context  Show context usage (/ctx)',
      '  … 1 more (tab to cycle)',
    ]);
  });

  it('hides the cursor when inactive', () => {
    expect(frameOf(<PromptInput state={stateAfter({ type: 'insert', text: 'x' })} isActive={false} />)).toBe(
      '› x',
    );
  });
});
