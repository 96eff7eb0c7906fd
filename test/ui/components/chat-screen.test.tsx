import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { DisplayItem } from '../../../src/chat/state/display-items.js';
import { ChatScreen, type ChatScreenProps, liveRowBudget } from '../../../src/ui/components/chat-screen.js';
import { createEditorState, editorReducer } from '../../../src/ui/input/editor-state.js';

const ITEMS: DisplayItem[] = [
  { kind: 'banner', id: 'b', model: 'qwen3', host: 'http://127.0.0.1:11434', numCtx: 8192 },
  { kind: 'user', id: 'u1', text: 'What is 2+2?' },
  { kind: 'assistant', id: 'a1', markdown: 'It is 4.' },
];

const STATUS = { model: 'qwen3', numCtx: 8192, used: 1229 };

function screen(overrides: Partial<ChatScreenProps> = {}) {
  return render(
    <ChatScreen
      items={ITEMS}
      status={STATUS}
      input={createEditorState()}
      width={60}
      height={24}
      {...overrides}
    />,
  );
}

describe('ChatScreen', () => {
  it('composes the finished items, the prompt and the status line in order', () => {
    const { lastFrame, unmount } = screen();
    const frame = lastFrame() ?? '';
    const order = [
      'ochat',
      '› What is 2+2?',
      'It is 4.',
      '› \x1b[7m \x1b[27mType a message', // the cursor, inverse even without colours
      'qwen3 · 1.2k/8k (15%)',
    ];
    const positions = order.map((text) => frame.indexOf(text));
    for (const position of positions) expect(position).toBeGreaterThanOrEqual(0);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    unmount();
  });

  it('prints each item once when more are appended', () => {
    const { lastFrame, rerender, unmount } = screen();
    const more: DisplayItem[] = [
      ...ITEMS,
      { kind: 'notice', id: 'n1', level: 'success', text: 'Compacted 2 messages' },
    ];
    rerender(<ChatScreen items={more} status={STATUS} input={createEditorState()} width={60} height={24} />);
    const frame = lastFrame() ?? '';
    expect(frame.split('It is 4.')).toHaveLength(2);
    expect(frame).toContain('✓ Compacted 2 messages');
    unmount();
  });

  it('shows the live reply clipped so that the live part fits the terminal height', () => {
    const text = Array.from({ length: 100 }, (_, index) => `row ${index}`).join('\n');
    const height = 24;
    const { lastFrame, unmount } = render(
      <ChatScreen
        items={[]}
        live={{ text }}
        status={STATUS}
        input={createEditorState()}
        width={60}
        height={height}
      />,
    );
    const frame = lastFrame() ?? '';
    expect(frame).toContain('row 99');
    expect(frame).not.toContain('row 50\n');
    expect(frame.split('\n').length).toBeLessThan(height);
    unmount();
  });

  it('shows a dialog above the prompt and dims the prompt while it is open', () => {
    const input = editorReducer(createEditorState(), { type: 'insert', text: 'draft' });
    const { lastFrame, unmount } = screen({ input, dialog: { question: 'Retry compaction?' } });
    const frame = lastFrame() ?? '';
    expect(frame.indexOf('? Retry compaction? (y/n)')).toBeLessThan(frame.indexOf('› draft'));
    unmount();
  });

  it('hides the prompt when there is no input state', () => {
    const { lastFrame, unmount } = screen({ input: undefined });
    expect(lastFrame()).not.toContain('Type a message');
    unmount();
  });

  it('gives the live area fewer rows as the prompt grows', () => {
    const small = liveRowBudget({ input: createEditorState(), width: 60, height: 30 });
    const tall = liveRowBudget({
      input: editorReducer(createEditorState(), { type: 'insert', text: 'a\nb\nc\nd' }),
      dialog: { question: 'Sure?' },
      width: 60,
      height: 30,
    });
    expect(tall).toBe(small - 3 - 2);
    expect(liveRowBudget({ width: 60, height: 2 })).toBe(3);
  });
});
