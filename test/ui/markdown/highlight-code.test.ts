import { beforeAll, describe, expect, it, vi } from 'vitest';

// Colour support is decided when chalk is first imported; force it before loading the highlighter.
process.env.FORCE_COLOR = '3';

const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('highlightCode (colours on)', () => {
  let highlightCode: typeof import('../../../src/ui/markdown/highlight-code.js').highlightCode;
  let isHighlightable: typeof import('../../../src/ui/markdown/highlight-code.js').isHighlightable;
  beforeAll(async () => {
    ({ highlightCode, isHighlightable } = await import('../../../src/ui/markdown/highlight-code.js'));
  });

  it.each([
    ['python', 'def answer():\n    return 42', 'def'],
    ['py', 'import os', 'import'],
    ['typescript', 'const x: number = 1;', 'const'],
    ['bash', 'if true; then echo hi; fi', 'if'],
    ['rust', 'fn main() { let x = 1; }', 'fn'],
    ['go', 'func main() { return }', 'func'],
    ['json', '{"a": true}', 'true'],
  ])('styles the keywords of %s, keeping the code', (language, code, keyword) => {
    const out = highlightCode(code, language);
    expect(stripAnsi(out)).toBe(code);
    expect(out).toMatch(new RegExp(`\\x1b\\[[0-9;]+m${keyword}\\x1b\\[`));
  });

  it('shows an unknown or missing language in one colour, printing nothing', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(isHighlightable('no-such-lang')).toBe(false);
      for (const language of ['no-such-lang', undefined, '']) {
        const out = highlightCode('let x = 1', language);
        expect(stripAnsi(out)).toBe('let x = 1');
        expect(out).toMatch(/^\x1b\[33m/);
      }
      expect(error).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
      warn.mockRestore();
    }
  });
});
