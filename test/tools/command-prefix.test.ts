import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commandApprovalPrefix,
  commandHasPrefix,
  describeCommandPrefix,
  simpleCommandWords,
} from '../../src/tools/command-prefix.js';

describe('simpleCommandWords', () => {
  it('splits a simple command into words, quotes removed', () => {
    expect(simpleCommandWords('npm test')).toEqual(['npm', 'test']);
    expect(simpleCommandWords(`  git commit -m "fix: a typo"  `)).toEqual([
      'git',
      'commit',
      '-m',
      'fix: a typo',
    ]);
    expect(simpleCommandWords(`echo '' x`)).toEqual(['echo', '', 'x']);
  });

  it.each([
    'echo first; touch out/danger.txt',
    'npm test && rm -rf ~',
    'npm test || true',
    'npm test | tee log',
    'npm test > out.txt',
    'npm test < in.txt',
    'npm test &',
    'echo $(rm x)',
    'echo `rm x`',
    'echo $HOME',
    'echo "a;b"',
    '(npm test)',
    'npm test\nrm x',
    'npm\ttest',
    'npm test \\; rm x',
    'echo "unterminated',
    '   ',
  ])('is not a simple command: %j', (line) => {
    expect(simpleCommandWords(line)).toBeUndefined();
  });
});

describe('commandApprovalPrefix', () => {
  it.each([
    ['npm test', ['npm', 'test']],
    ['npm test -- --watch', ['npm', 'test']],
    ['git commit -m "x y"', ['git', 'commit']],
    ['echo first', ['echo', 'first']],
    ['ls -la src', ['ls']],
    ['cat notes.txt', ['cat']],
    ['touch out/danger.txt', ['touch']],
    ['./build.sh release', ['./build.sh', 'release']],
    ['npx vitest run', ['npx', 'vitest']],
  ])('%j → %j', (line, prefix) => {
    expect(commandApprovalPrefix(line)).toEqual(prefix);
  });

  it.each([
    'echo a; touch b',
    'FOO=1 npm test',
    'sudo npm test',
    'bash -c "rm -rf x"',
    '/usr/bin/env npm test',
    'xargs rm',
  ])('offers nothing beyond this run for %j', (line) => {
    expect(commandApprovalPrefix(line)).toBeUndefined();
  });
});

describe('commandHasPrefix', () => {
  it('matches whole leading words of a simple command only', () => {
    expect(commandHasPrefix('npm test', ['npm', 'test'])).toBe(true);
    expect(commandHasPrefix('npm  test --coverage', ['npm', 'test'])).toBe(true);
    expect(commandHasPrefix('"npm" test', ['npm', 'test'])).toBe(true);
    expect(commandHasPrefix('npm testx', ['npm', 'test'])).toBe(false);
    expect(commandHasPrefix('npm', ['npm', 'test'])).toBe(false);
    expect(commandHasPrefix('npm run test', ['npm', 'test'])).toBe(false);
    expect(commandHasPrefix('npm test; rm -rf ~', ['npm', 'test'])).toBe(false);
    expect(commandHasPrefix('npm test && curl x | sh', ['npm', 'test'])).toBe(false);
    expect(commandHasPrefix('touch out/danger.txt', ['echo', 'first'])).toBe(false);
  });

  it('never lets a line with shell syntax through, whatever the prefix', () => {
    const syntax = fc.constantFrom(';', '&&', '||', '|', '>', '<', '$(', '`', '\n', '&', '(', ')', '\\', '$');
    fc.assert(
      fc.property(fc.string(), syntax, fc.string(), (before, operator, after) => {
        const line = `npm test ${before}${operator}${after}`;
        expect(commandHasPrefix(line, ['npm', 'test'])).toBe(false);
        expect(commandHasPrefix(line, ['npm'])).toBe(false);
      }),
    );
  });
});

describe('describeCommandPrefix', () => {
  it('shows the words and an ellipsis, quoting words with spaces', () => {
    expect(describeCommandPrefix(['npm', 'test'])).toBe('npm test …');
    expect(describeCommandPrefix(['./my tool'])).toBe('"./my tool" …');
  });
});
