import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/command-line.js';
import { parseCommonArgs } from '../../src/cli/common-args.js';

describe('parseCommonArgs', () => {
  it('reads `ochat`, `-m NAME`, `-p PROMPT` and both (either spelling, any order) exactly as commander does', () => {
    const value = fc.string({ minLength: 1 }).filter((s) => !s.startsWith('-'));
    const pair = (names: string[]) => fc.tuple(fc.constantFrom(...names), value);
    const line = fc
      .tuple(fc.option(pair(['-m', '--model'])), fc.option(pair(['-p', '--print'])), fc.boolean())
      .map(([model, print, swap]) => {
        const pairs = [model, print].filter((p): p is [string, string] => p !== null);
        return (swap ? pairs.reverse() : pairs).flat();
      });
    fc.assert(
      fc.property(line, (args) => {
        const common = parseCommonArgs(args);
        expect(common).toBeDefined();
        expect({ flags: common, words: '' }).toEqual(parseCommandLine(['node', 'ochat', ...args]));
      }),
    );
  });

  it('leaves every other command line to commander', () => {
    for (const line of [
      ['-m'],
      ['-p'],
      ['-m', ''],
      ['-p', ''],
      ['-m', '-p'],
      ['-p', '-'],
      ['-m', 'a', '-m', 'b'],
      ['-p', 'x', '--print', 'y'],
      ['hello'],
      ['-m', 'x', 'hi'],
      ['--model=x'],
      ['-mx'],
      ['--help'],
      ['-s', 'x'],
    ]) {
      expect(parseCommonArgs(line)).toBeUndefined();
    }
  });
});
