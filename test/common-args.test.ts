import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/command-line.js';
import { parseCommonArgs } from '../src/common-args.js';

describe('parseCommonArgs', () => {
  it('reads `ochat` and `ochat -m NAME` / `--model NAME` exactly as commander does', () => {
    const name = fc.string({ minLength: 1 }).filter((s) => !s.startsWith('-'));
    const args = fc.oneof(
      fc.constant([] as string[]),
      name.map((n) => ['-m', n]),
      name.map((n) => ['--model', n]),
    );
    fc.assert(
      fc.property(args, (line) => {
        const common = parseCommonArgs(line);
        expect(common).toBeDefined();
        expect({ flags: common, words: '' }).toEqual(parseCommandLine(['node', 'ochat', ...line]));
      }),
    );
  });

  it('leaves every other command line to commander', () => {
    for (const line of [
      ['-m'],
      ['-m', ''],
      ['-m', '-p'],
      ['-p', 'x'],
      ['hello'],
      ['-m', 'x', 'hi'],
      ['--model=x'],
      ['-mx'],
      ['--help'],
    ]) {
      expect(parseCommonArgs(line)).toBeUndefined();
    }
  });
});
