import { describe, expect, it } from 'vitest';
import { findAttachmentRefs, looksLikePath } from '../../src/attachments/attachment-refs.js';

const paths = (text: string) => findAttachmentRefs(text).map((ref) => ref.path);

describe('findAttachmentRefs', () => {
  it('finds @paths at the start and after whitespace, with their offsets', () => {
    expect(findAttachmentRefs('@a.md and\n@src/b.ts')).toEqual([
      { path: 'a.md', start: 0, end: 5 },
      { path: 'src/b.ts', start: 10, end: 19 },
    ]);
  });

  it('leaves out trailing punctuation, and takes quoted paths with spaces', () => {
    expect(paths('what is in @notes.md? and (see @x.txt), @"my file.txt".')).toEqual([
      'notes.md',
      'x.txt',
      'my file.txt',
    ]);
    expect(findAttachmentRefs('@"a b" c')).toEqual([{ path: 'a b', start: 0, end: 6 }]);
  });

  it('ignores e-mail addresses, a lone @ and @ followed by punctuation only', () => {
    expect(paths('mail me@host.org, @ now, @?')).toEqual([]);
  });
});

describe('looksLikePath', () => {
  it('takes a name with an extension or an explicit start for a path, anything else for text', () => {
    expect(
      ['notes.md', 'src/a.ts', '.env', './x', '../x', '~/x', '/etc/x', 'a-b_c.tar.gz'].every(looksLikePath),
    ).toBe(true);
    expect(
      ['john', 'here', 'Makefile', 'types/node', "app.route('", 'a.b(c)', 'x.'].some(looksLikePath),
    ).toBe(false);
  });
});
