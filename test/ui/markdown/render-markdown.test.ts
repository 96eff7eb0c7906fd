import { describe, expect, it } from 'vitest';
import { loadMarkdownRenderer, renderMarkdown } from '../../../src/ui/markdown/render-markdown.js';

const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('renderMarkdown (before loading)', () => {
  // Runs first in this file: the module-level renderer has not been loaded yet.
  it('returns the source as is and renderMarkdownSync refuses', () => {
    expect(renderMarkdown('**x**', 80)).toBe('**x**');
  });
});

describe('renderMarkdown (loaded)', () => {
  it('loads once and shares the renderer', async () => {
    const [first, second] = await Promise.all([loadMarkdownRenderer(), loadMarkdownRenderer()]);
    expect(first).toBe(second);
    expect(renderMarkdown('**x**', 80)).not.toContain('**');
  });

  it('renders headings and emphasis without the markdown markers', async () => {
    await loadMarkdownRenderer();
    const out = stripAnsi(renderMarkdown('## Setup\n\nUse **bold** and *em*.', 80));
    expect(out).toContain('## Setup');
    expect(out).toContain('Use bold and em.');
    expect(out).not.toContain('**');
  });

  it('renders lists, including inline formatting inside tight items', async () => {
    await loadMarkdownRenderer();
    const out = stripAnsi(renderMarkdown('- first **strong**\n- second `code`\n\n1. one\n2. two', 80));
    expect(out).toMatch(/\* first strong/);
    expect(out).toMatch(/\* second code/);
    expect(out).toMatch(/1\. one/);
    expect(out).toMatch(/2\. two/);
    expect(out).not.toContain('**');
  });

  it('keeps the code of a code block', async () => {
    await loadMarkdownRenderer();
    const out = stripAnsi(renderMarkdown('```ts\nconst answer = 42;\n```', 80));
    expect(out).toContain('const answer = 42;');
    expect(out).not.toContain('```');
  });

  it('wraps paragraphs to the width', async () => {
    await loadMarkdownRenderer();
    const paragraph = 'word '.repeat(60).trim();
    const lines = stripAnsi(renderMarkdown(paragraph, 30)).split('\n');
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(30);
  });

  it('does not end with blank lines', async () => {
    await loadMarkdownRenderer();
    for (const markdown of ['Hello', '# Title\n\n', '- a\n- b\n\n', '```\ncode\n```\n\n\n']) {
      expect(renderMarkdown(markdown, 80)).not.toMatch(/\n\s*$/);
    }
  });

  it('renders via renderMarkdown once loaded', async () => {
    await loadMarkdownRenderer();
    expect(stripAnsi(renderMarkdown('**x**', 80))).toBe('x');
  });
});

describe('renderMarkdown past the size limit', () => {
  it('shows a block over MAX_RENDERED_CHARS as its plain text, at once (a ~10 MB paragraph overflowed the stack)', async () => {
    const { MAX_RENDERED_CHARS } = await import('../../../src/ui/markdown/render-markdown.js');
    await loadMarkdownRenderer();
    const huge = 'word **bold** and `code` '.repeat(Math.ceil(10_000_000 / 25));
    expect(renderMarkdown(huge, 80)).toBe(huge);
    const justOver = 'x'.repeat(MAX_RENDERED_CHARS + 1);
    expect(renderMarkdown(justOver, 80)).toBe(justOver);
    // Below the limit it is still rendered.
    expect(stripAnsi(renderMarkdown('**bold**', 80))).toBe('bold');
  });
});
