import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { PromptInput } from '../../../src/ui/components/prompt-input.js';
import { createEditorState, type EditorAction, editorReducer } from '../../../src/ui/input/editor-state.js';

const COMMANDS = [
  { name: 'compact', aliases: [], summary: 'Compact the conversation now', usage: '/compact' },
  { name: 'context', aliases: ['ctx'], summary: 'Show context usage', usage: '/context' },
  { name: 'help', aliases: ['h'], summary: 'List commands', usage: '/help' },
];

// The cursor cell in inverse video, drawn even with colours off (this suite runs with FORCE_COLOR=0).
const INVERSE_ON = '\x1b[7m';
const INVERSE_OFF = '\x1b[27m';
const CURSOR_PAST_END = `${INVERSE_ON} ${INVERSE_OFF}`;

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
    expect(frameOf(<PromptInput state={stateAfter()} placeholder="Ask anything" />)).toBe(
      `› ${CURSOR_PAST_END}Ask anything`,
    );
  });

  it('renders a multi-line input with the prompt on the first line and blank lines kept', () => {
    const state = stateAfter({ type: 'insert', text: 'first\n\nthird' });
    // Ink trims trailing spaces from rows; the blank line still takes its row.
    expect(frameOf(<PromptInput state={state} />)).toBe(`› first\n\n  third${CURSOR_PAST_END}`);
  });

  it('lists matching slash commands with their one-line help and aliases', () => {
    const frame = frameOf(<PromptInput state={stateAfter({ type: 'insert', text: '/c' })} />);
    expect(frame.split('\n')).toEqual([
      `› /c${CURSOR_PAST_END}`,
      '  /compact  Compact the conversation now',
      '  /context  Show context usage (/ctx)',
    ]);
  });

  it('keeps the list while cycling and says how many are hidden', () => {
    const state = stateAfter({ type: 'insert', text: '/' }, { type: 'complete' });
    const frame = frameOf(<PromptInput state={state} maxCompletions={2} />);
    expect(frame.split('\n')).toEqual([
      `› /compact${CURSOR_PAST_END}`,
      '  /compact  Compact the conversation now',
      '  /context  Show context usage (/ctx)',
      '  … 1 more (tab to cycle)',
    ]);
  });

  it('hides the cursor when inactive', () => {
    const frame = frameOf(<PromptInput state={stateAfter({ type: 'insert', text: 'x' })} isActive={false} />);
    expect(frame).toBe('› x');
    expect(frame).not.toContain(INVERSE_ON);
  });

  it('draws the whole character under the cursor inverse, also with colours off', () => {
    const frame = frameOf(
      <PromptInput state={stateAfter({ type: 'insert', text: 'abc' }, { type: 'left' })} />,
    );
    expect(frame).toContain(`ab${INVERSE_ON}c${INVERSE_OFF}`);
    const emoji = stateAfter({ type: 'insert', text: 'a👍🏽b' }, { type: 'left' }, { type: 'left' });
    expect(frameOf(<PromptInput state={emoji} />)).toContain(`a${INVERSE_ON}👍🏽${INVERSE_OFF}b`);
  });

  it('puts the cursor on the right line of a multi-line input', () => {
    const frame = frameOf(
      <PromptInput state={stateAfter({ type: 'insert', text: 'one\ntwo' }, { type: 'up' })} />,
    );
    const [first, second] = frame.split('\n');
    expect(first).toContain(`one${CURSOR_PAST_END}`);
    expect(second).not.toContain(INVERSE_ON);
  });
});
