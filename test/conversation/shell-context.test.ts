import { describe, expect, it } from 'vitest';
import { shellContextText } from '../../src/conversation/shell-context.js';

describe('shellContextText', () => {
  it('says what ran where, how it ended and what it printed, as a console transcript', () => {
    expect(shellContextText({ command: 'ls', cwd: '/w', endNote: 'exit code 0', output: 'a\nb' })).toBe(
      'I ran a shell command in /w (exit code 0); this is what it printed:\n```console\n$ ls\na\nb\n```',
    );
  });

  it('says when it printed nothing', () => {
    expect(shellContextText({ command: 'true', cwd: '/w', endNote: 'exit code 0', output: '' })).toBe(
      'I ran a shell command in /w (exit code 0); it printed nothing:\n```console\n$ true\n```',
    );
  });

  it('fences output holding backticks with a longer fence, so it cannot close the block', () => {
    const text = shellContextText({
      command: 'cat x.md',
      cwd: '/w',
      endNote: 'exit code 0',
      output: '````\ncode',
    });
    expect(text).toContain('\n`````console\n$ cat x.md\n````\ncode\n`````');
  });
});
