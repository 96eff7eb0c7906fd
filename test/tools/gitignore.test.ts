import { describe, expect, it } from 'vitest';
import { isIgnored, parseGitignore } from '../../src/tools/gitignore.js';

const base = '/repo';
const ignored = (text: string, rel: string, isDir = false) =>
  isIgnored(parseGitignore(text, base), `${base}/${rel}`, isDir);

describe('gitignore matcher', () => {
  it('matches unanchored names at any depth', () => {
    expect(ignored('*.log', 'a.log')).toBe(true);
    expect(ignored('*.log', 'deep/dir/a.log')).toBe(true);
    expect(ignored('*.log', 'a.txt')).toBe(false);
  });

  it('anchors patterns with a leading or inner slash', () => {
    expect(ignored('/build', 'build', true)).toBe(true);
    expect(ignored('/build', 'src/build', true)).toBe(false);
    expect(ignored('docs/out', 'docs/out', true)).toBe(true);
    expect(ignored('docs/out', 'x/docs/out', true)).toBe(false);
    expect(ignored('**/gen/*.ts', 'a/b/gen/x.ts')).toBe(true);
  });

  it('restricts trailing-slash patterns to directories', () => {
    expect(ignored('dist/', 'dist', true)).toBe(true);
    expect(ignored('dist/', 'dist', false)).toBe(false);
  });

  it('lets a later negation re-include, last match winning', () => {
    const rules = '*.log\n!keep.log\n';
    expect(ignored(rules, 'drop.log')).toBe(true);
    expect(ignored(rules, 'keep.log')).toBe(false);
    expect(ignored('!keep.log\n*.log\n', 'keep.log')).toBe(true);
  });

  it('skips comments and blank lines, honours escapes', () => {
    expect(parseGitignore('# comment\n\n   \n', base)).toEqual([]);
    expect(ignored('\\#hash', '#hash')).toBe(true);
    expect(ignored('\\!bang', '!bang')).toBe(true);
  });

  it('applies rules only below their own directory', () => {
    const rules = parseGitignore('*.tmp', '/repo/sub');
    expect(isIgnored(rules, '/repo/sub/x.tmp', false)).toBe(true);
    expect(isIgnored(rules, '/repo/x.tmp', false)).toBe(false);
  });
});
