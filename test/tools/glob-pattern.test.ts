import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../../src/tools/glob-pattern.js';

const matches = (glob: string, subject: string) => globToRegExp(glob).test(subject);

describe('globToRegExp', () => {
  it('keeps * and ? within one segment', () => {
    expect(matches('*.ts', 'app.ts')).toBe(true);
    expect(matches('*.ts', 'src/app.ts')).toBe(false);
    expect(matches('a?c', 'abc')).toBe(true);
    expect(matches('a?c', 'a/c')).toBe(false);
  });

  it('lets ** span segments, including none', () => {
    expect(matches('src/**/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/**/*.ts', 'src/x/y/a.ts')).toBe(true);
    expect(matches('**/test.md', 'test.md')).toBe(true);
    expect(matches('docs/**', 'docs/a/b')).toBe(true);
    expect(matches('docs/**', 'other/a')).toBe(false);
  });

  it('supports classes, braces and escapes', () => {
    expect(matches('file[0-9].txt', 'file7.txt')).toBe(true);
    expect(matches('file[!0-9].txt', 'file7.txt')).toBe(false);
    expect(matches('*.{ts,tsx}', 'a.tsx')).toBe(true);
    expect(matches('*.{ts,tsx}', 'a.js')).toBe(false);
    expect(matches('\\*.txt', '*.txt')).toBe(true);
    expect(matches('\\*.txt', 'a.txt')).toBe(false);
    expect(matches('a.b', 'axb')).toBe(false);
  });

  it('treats braces literally when asked (as .gitignore does) and rejects unclosed ones otherwise', () => {
    expect(globToRegExp('{a}', { braces: false }).test('{a}')).toBe(true);
    expect(() => globToRegExp('*.{ts')).toThrow(/unclosed/);
  });
});
