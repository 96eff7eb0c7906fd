import { describe, expect, it } from 'vitest';
import { parseShellInput, shellHint } from '../../../src/chat/input/shell-input.js';

describe('parseShellInput', () => {
  it('reads !command, trimming around the command', () => {
    expect(parseShellInput('!git status')).toEqual({ kind: 'command', command: 'git status' });
    expect(parseShellInput('  !  ls -la  ')).toEqual({ kind: 'command', command: 'ls -la' });
    expect(parseShellInput('!echo a\necho b')).toEqual({ kind: 'command', command: 'echo a\necho b' });
  });

  it('gives a hint for ! alone or with spaces only', () => {
    expect(parseShellInput('!')).toEqual({ kind: 'hint' });
    expect(parseShellInput('!   ')).toEqual({ kind: 'hint' });
  });

  it('\\! sends a message starting with ! (only the first backslash goes)', () => {
    expect(parseShellInput('\\!important: read this \\!')).toEqual({
      kind: 'message',
      text: '!important: read this \\!',
    });
  });

  it('leaves every other line alone', () => {
    for (const text of ['hello!', 'a ! b', '/help', '\\n', ' \\ !x'])
      expect(parseShellInput(text)).toBeUndefined();
  });

  it('the hint names the directory and the escape', () => {
    expect(shellHint('/work/proj')).toContain('/work/proj');
    expect(shellHint('/work/proj')).toContain('\\! starts a message with !');
  });
});
