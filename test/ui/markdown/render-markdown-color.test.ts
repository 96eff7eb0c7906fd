import { beforeAll, describe, expect, it, vi } from 'vitest';

// Colour support is decided when chalk is first imported; force it before loading the renderer.
process.env.FORCE_COLOR = '3';

describe('renderMarkdown with colours forced', () => {
  let render: (markdown: string, width: number) => string;
  beforeAll(async () => {
    const module = await import('../../../src/ui/markdown/render-markdown.js');
    render = await module.loadMarkdownRenderer();
  });

  it('highlights a code block: its code is there, with colour codes', () => {
    const out = render('```js\nconst answer = 42; // the answer\n```', 80);
    expect(out).toMatch(/\x1b\[\d+m/);
    expect(out.replace(/\x1b\[[0-9;]*m/g, '')).toContain('const answer = 42; // the answer');
    // `const` is a keyword: the highlighter styles it separately from the rest of the line.
    expect(out).toMatch(/\x1b\[\d+mconst\x1b\[\d+m/);
  });

  it('shows a block in a language the highlighter does not know as plain code, printing nothing', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const out = render('```no-such-lang\nlet x = 1\n```', 80);
      expect(out.replace(/\x1b\[[0-9;]*m/g, '')).toContain('let x = 1');
      expect(error).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
      warn.mockRestore();
    }
  });

  it('styles headings', () => {
    expect(render('# Title', 80)).toMatch(/\x1b\[[0-9;]*m.*Title/);
  });
});
