import { render } from 'ink-testing-library';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DisplayItem } from '../../../src/chat/state/display-items.js';
import { MessageItem } from '../../../src/ui/components/message-item.js';
import { loadMarkdownRenderer } from '../../../src/ui/markdown/render-markdown.js';

function frameOf(item: DisplayItem, width = 80, showThinking = false): string {
  const { lastFrame, unmount } = render(
    <MessageItem item={item} width={width} showThinking={showThinking} />,
  );
  const frame = lastFrame() ?? '';
  unmount();
  return frame;
}

beforeAll(async () => {
  await loadMarkdownRenderer();
});

describe('MessageItem', () => {
  it('banner: model, host and num_ctx', () => {
    const frame = frameOf({
      kind: 'banner',
      id: 'b',
      model: 'qwen3:8b',
      host: 'http://127.0.0.1:11434',
      numCtx: 8192,
    });
    expect(frame).toContain('ochat');
    expect(frame).toContain('qwen3:8b');
    expect(frame).toContain('http://127.0.0.1:11434');
    expect(frame).toContain('num_ctx 8192');
  });

  it('user: a › prefix, continuation lines indented under the text', () => {
    const frame = frameOf({ kind: 'user', id: 'u', text: 'first line\nsecond line' });
    expect(frame).toBe('\n› first line\n  second line');
  });

  it('assistant: markdown rendered, not shown raw', () => {
    const frame = frameOf({ kind: 'assistant', id: 'a', markdown: '## Plan\n\n- step **one**\n- step two' });
    expect(frame).toContain('## Plan');
    expect(frame).toMatch(/\* step one/);
    expect(frame).not.toContain('**');
    expect(frame).not.toContain('[interrupted]');
  });

  it('assistant: model control sequences never reach the output', () => {
    const frame = frameOf({
      kind: 'assistant',
      id: 'a',
      markdown: 'Click \x1b]8;;https://evil.example\x07here\x1b]8;;\x07 \x1b[2Jnow\x1b]0;title\x07',
    });
    expect(frame).toContain('Click here now');
    expect(frame).not.toMatch(/\x1b\]|\x07|\x1b\[2J/);
  });

  it('assistant: interrupted replies are marked', () => {
    expect(frameOf({ kind: 'assistant', id: 'a', markdown: 'Partial ans', interrupted: true })).toContain(
      'Partial ans\n[interrupted]',
    );
  });

  it('assistant: a runaway reply shows its two ends in rows laid out by ochat, not by Ink', () => {
    // Ink's wrapping took ~11 µs a character (3 s for the two 64 kB ends after a 4 M cut) and
    // started each continuation row with the space it broke at.
    const words = 'lorem ipsum dolor sit amet '.repeat(6000);
    const frame = frameOf({ kind: 'assistant', id: 'a', markdown: `HEAD ${words}TAIL` }, 40);
    const rows = frame.split('\n').slice(1);
    expect(rows[0]).toMatch(/^HEAD lorem/);
    expect(rows.at(-1)).toMatch(/TAIL$/);
    expect(frame).toContain('characters not shown here');
    expect(rows.filter((row) => row.startsWith(' '))).toEqual([]);
    expect(Math.max(...rows.map((row) => row.length))).toBeLessThanOrEqual(40);
  });

  it('thinking: one line when collapsed, the text when expanded; the hint says what Ctrl+T does now', () => {
    const text = 'x'.repeat(312);
    expect(frameOf({ kind: 'thinking', id: 't', text })).toBe('\n✻ Thought for 312 chars (ctrl+t to show)');
    const expanded = frameOf({ kind: 'thinking', id: 't', text: 'Let me consider the options.' }, 80, true);
    expect(expanded).toBe('\n✻ Thought for 28 chars (ctrl+t to hide)\n  Let me consider the options.');
  });

  it('tool: ⚙ name, key argument and summary; ✗ when it failed', () => {
    const ok = frameOf({
      kind: 'tool',
      id: 'x',
      name: 'read_file',
      keyArgument: 'src/app.ts',
      summary: 'read src/app.ts (lines 1–120 of 340)',
      ok: true,
    });
    expect(ok).toBe('\n⚙ read_file src/app.ts — read src/app.ts (lines 1–120 of 340)');
    const failed = frameOf({
      kind: 'tool',
      id: 'x',
      name: 'read_file',
      keyArgument: 'nope',
      summary: 'not found',
      ok: false,
    });
    expect(failed).toBe('\n✗ read_file nope — not found');
  });

  it('shell: the command, its output indented, how it ended; control sequences removed', () => {
    const ok = frameOf({
      kind: 'shell',
      id: 'x',
      command: 'ls\x1b]0;pwn\x07',
      output: 'a.txt\n\x1b[2Jb.txt',
      end: 'exit 0',
      ok: true,
    });
    expect(ok).toBe('\n! ls\n  a.txt\n  b.txt\n  exit 0');
    const resumed = frameOf({ kind: 'shell', id: 'x', command: 'false', end: 'exit 1', ok: false });
    expect(resumed).toBe('\n! false\n  ✗ exit 1');
  });

  it('notice: one symbol per level', () => {
    const symbols = { info: 'ℹ', success: '✓', warning: '⚠', error: '✗' } as const;
    for (const [level, symbol] of Object.entries(symbols)) {
      const frame = frameOf({
        kind: 'notice',
        id: 'n',
        level: level as keyof typeof symbols,
        text: 'Compacted 4 messages',
      });
      expect(frame).toBe(`\n${symbol} Compacted 4 messages`);
    }
  });
});
