import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitCommittable } from '../../src/text/split-committable.js';

/** Whether a CommonMark-ish fence is left open at the end of `text` (reference model for the property). */
function endsInsideFence(text: string): boolean {
  let open: { char: string; length: number } | undefined;
  for (const line of text.split('\n')) {
    const match = /^( *)(`{3,}|~{3,})(.*)$/.exec(line);
    if (!match) continue;
    const [, , marker, rest] = match;
    if (open) {
      if (marker[0] === open.char && marker.length >= open.length && rest.trim() === '') open = undefined;
    } else if (!(marker[0] === '`' && rest.includes('`'))) {
      open = { char: marker[0], length: marker.length };
    }
  }
  return open !== undefined;
}

describe('splitCommittable', () => {
  it('commits nothing without a blank line', () => {
    expect(splitCommittable('Hello wor')).toEqual({ committed: '', pending: 'Hello wor' });
    expect(splitCommittable('line one\nline two\n')).toEqual({
      committed: '',
      pending: 'line one\nline two\n',
    });
  });

  it('commits up to and including the last blank line', () => {
    expect(splitCommittable('Para one.\n\nPara two.\n\nPara th')).toEqual({
      committed: 'Para one.\n\nPara two.\n\n',
      pending: 'Para th',
    });
  });

  it('counts whitespace-only lines as blank but not an unterminated last line', () => {
    expect(splitCommittable('a\n   \nb').committed).toBe('a\n   \n');
    expect(splitCommittable('a\n').committed).toBe('');
  });

  it('never commits at a blank line inside a ``` fence with an info string', () => {
    const text = 'Intro\n\n```python\ndef f():\n\n    return 1\n';
    expect(splitCommittable(text)).toEqual({
      committed: 'Intro\n\n',
      pending: '```python\ndef f():\n\n    return 1\n',
    });
  });

  it('commits after a fence is closed and followed by a blank line', () => {
    const text = '```js\nlet a;\n\nlet b;\n```\n\nAfter';
    expect(splitCommittable(text).committed).toBe('```js\nlet a;\n\nlet b;\n```\n\n');
  });

  it('handles ~~~ fences and ignores ``` inside them', () => {
    const text = '~~~\n```\n\nstill code\n~~~\n\nx';
    expect(splitCommittable(text).committed).toBe('~~~\n```\n\nstill code\n~~~\n\n');
    expect(splitCommittable('~~~md\n```\n\n```\n\nmore').committed).toBe('');
  });

  it('needs a closing fence at least as long as the opening one (nested backticks)', () => {
    const text = '````markdown\n```js\nx\n```\n\nstill inside\n````\n\ndone';
    expect(splitCommittable(text).committed).toBe('````markdown\n```js\nx\n```\n\nstill inside\n````\n\n');
    expect(splitCommittable('````\n```\n\n').committed).toBe('');
  });

  it('accepts fences indented up to 3 spaces, and a closing fence with trailing spaces', () => {
    expect(splitCommittable('   ```\ncode\n\n').committed).toBe('');
    expect(splitCommittable('   ```\ncode\n   ```  \n\nz').committed).toBe('   ```\ncode\n   ```  \n\n');
  });

  it('treats fences nested in list items (deeper indent) as fences too', () => {
    expect(splitCommittable('1. Run:\n\n    ```sh\n    make\n\n    make test\n').committed).toBe(
      '1. Run:\n\n',
    );
  });

  it('does not take a line with backticks in its info string for a fence', () => {
    expect(splitCommittable('```inline``` code\n\nnext').committed).toBe('```inline``` code\n\n');
  });

  const markdownish = fc
    .array(
      fc.oneof(
        fc.constantFrom('', '   ', '```', '```js', '~~~', '````', '  ```', '~~~~ x', 'text', '- item', '# h'),
        fc.string({ maxLength: 8 }),
      ),
      { maxLength: 30 },
    )
    .map((lines) => lines.join('\n'));

  it('keeps committed + pending === text and never ends inside a fence (property)', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        const { committed, pending } = splitCommittable(text);
        expect(committed + pending).toBe(text);
        expect(committed === '' || /\n[ \t]*\n$|^[ \t]*\n$/.test(committed)).toBe(true);
        expect(endsInsideFence(committed)).toBe(false);
      }),
    );
  });

  it('only moves the commit point forward as text streams in (property)', () => {
    fc.assert(
      fc.property(markdownish, fc.nat(), (text, cut) => {
        const prefix = text.slice(0, cut % (text.length + 1));
        expect(splitCommittable(text).committed.startsWith(splitCommittable(prefix).committed)).toBe(true);
      }),
    );
  });
});
