import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { LiveReply, lastRows, visibleTail } from '../../../src/ui/components/live-reply.js';

describe('LiveReply', () => {
  it('shows short text as it is', () => {
    const { lastFrame, unmount } = render(<LiveReply text={'Hello **wor'} width={40} maxRows={10} />);
    expect(lastFrame()).toBe('Hello **wor');
    unmount();
  });

  it('clips long text to its last maxRows rows', () => {
    const text = Array.from({ length: 50 }, (_, index) => `line ${index + 1}`).join('\n');
    const { lastFrame, unmount } = render(<LiveReply text={text} width={40} maxRows={5} />);
    expect(lastFrame()).toBe(['line 46', 'line 47', 'line 48', 'line 49', 'line 50'].join('\n'));
    unmount();
  });

  it('counts wrapped rows, not lines, when clipping', () => {
    const text = `${'a'.repeat(25)}\n${'b'.repeat(25)}`; // 2 lines → 4 rows at width 10… plus remainders
    const rows = lastRows(text, 10, 4);
    expect(rows).toEqual(['aaaaa', 'bbbbbbbbbb', 'bbbbbbbbbb', 'bbbbb']);
    const { lastFrame, unmount } = render(<LiveReply text={text} width={10} maxRows={4} />);
    expect(lastFrame()?.split('\n')).toHaveLength(4);
    unmount();
  });

  it('strips control sequences from the streamed text', () => {
    const { lastFrame, unmount } = render(
      <LiveReply text={'ok\x1b[2J\x1b]0;t\x07!'} width={40} maxRows={5} />,
    );
    expect(lastFrame()).toBe('ok!');
    unmount();
  });

  it('shows a spinner line before any text, with the tail of the thinking above it', () => {
    const { lastFrame, unmount } = render(
      <LiveReply text="" thinking={'step 1\nstep 2\nstep 3\nstep 4'} width={40} maxRows={3} />,
    );
    const frame = lastFrame() ?? '';
    expect(frame).toMatch(/thinking…$/);
    expect(frame).toContain('step 4');
    expect(frame).toContain('step 3');
    expect(frame).not.toContain('step 2');
    unmount();
  });
});

describe('LiveReply before any text', () => {
  it('says what it waits for, never thinking… for a model that has not thought', () => {
    const waiting = render(<LiveReply text="" width={40} maxRows={3} />);
    expect(waiting.lastFrame()).toMatch(/waiting for the reply…$/);
    waiting.unmount();
    const loading = render(<LiveReply text="" waiting="loading m1…" width={40} maxRows={3} />);
    expect(loading.lastFrame()).toMatch(/loading m1…$/);
    expect(loading.lastFrame()).not.toContain('thinking');
    loading.unmount();
  });
});

describe('visibleTail', () => {
  it('keeps short text whole', () => {
    expect(visibleTail('short', 10, 3)).toBe('short');
  });

  it('wraps only the end of a huge paragraph: the same last rows as wrapping all of it', () => {
    const text = 'lorem ipsum dolor sit amet '.repeat(40_000); // ~1 MB, no line break
    const tail = visibleTail(text, 80, 20);
    expect(tail.length).toBeLessThanOrEqual(21 * 80 * 2);
    expect(lastRows(text, 80, 20)).toHaveLength(20);
    expect(lastRows(text, 80, 20).join('')).toBe(lastRows(tail, 80, 20).join(''));
  });

  it('starts at a line start near the cut, and never inside a surrogate pair', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const tail = visibleTail(lines, 10, 5);
    expect(lines.endsWith(tail)).toBe(true);
    expect(tail.startsWith('line ')).toBe(true);
    const emoji = '😀'.repeat(1000);
    for (const rows of [3, 4, 5]) expect(visibleTail(emoji, 7, rows).codePointAt(0)).toBe(0x1f600);
  });
});
