import { describe, expect, it } from 'vitest';
import { createEditorState, type EditorAction, editorReducer } from '../../../src/ui/input/editor-state.js';

// The cursor cell is drawn inverse, which only shows when colours are on; force them for this file.
process.env.FORCE_COLOR = '3';
const { render } = await import('ink-testing-library');
const { PromptInput } = await import('../../../src/ui/components/prompt-input.js');

const INVERSE_ON = '\x1b[7m';
const INVERSE_OFF = '\x1b[27m';

function frameAfter(...actions: EditorAction[]): string {
  const state = actions.reduce(editorReducer, createEditorState());
  const { lastFrame, unmount } = render(<PromptInput state={state} />);
  const frame = lastFrame() ?? '';
  unmount();
  return frame;
}

describe('PromptInput cursor (forced colour)', () => {
  it('draws the character under the cursor inverse', () => {
    const frame = frameAfter({ type: 'insert', text: 'abc' }, { type: 'left' });
    expect(frame).toContain(`ab${INVERSE_ON}c${INVERSE_OFF}`);
  });

  it('draws an inverse space past the end of the text', () => {
    expect(frameAfter({ type: 'insert', text: 'abc' })).toContain(`abc${INVERSE_ON} ${INVERSE_OFF}`);
  });

  it('puts the cursor on the right line of a multi-line input', () => {
    const frame = frameAfter({ type: 'insert', text: 'one\ntwo' }, { type: 'up' });
    const [first, second] = frame.split('\n');
    expect(first).toContain(`one${INVERSE_ON} ${INVERSE_OFF}`);
    expect(second).not.toContain(INVERSE_ON);
  });

  it('draws no cursor when inactive', () => {
    const state = editorReducer(createEditorState(), { type: 'insert', text: 'abc' });
    const { lastFrame, unmount } = render(<PromptInput state={state} isActive={false} />);
    expect(lastFrame()).not.toContain(INVERSE_ON);
    unmount();
  });
});
