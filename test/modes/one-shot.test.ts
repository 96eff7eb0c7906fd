import { describe, expect, it } from 'vitest';
import { composePrompt } from '../../src/modes/one-shot.js';

describe('composePrompt', () => {
  it('is the -p text alone when nothing is piped', () => {
    expect(composePrompt('explain this', undefined, '')).toBe('explain this');
  });

  it('is the piped text alone for a bare -p', () => {
    expect(composePrompt(true, undefined, 'line 1\nline 2\n')).toBe('line 1\nline 2');
    expect(composePrompt(undefined, undefined, 'piped')).toBe('piped');
  });

  it('puts the -p text first, then the piped text after a blank line', () => {
    expect(composePrompt('Summarize this log:', undefined, 'ERROR x\nERROR y\n\n\n')).toBe(
      'Summarize this log:\n\nERROR x\nERROR y',
    );
  });

  it('keeps the piped text exactly, except trailing whitespace', () => {
    expect(composePrompt('q', undefined, '  indented\n\ttabbed  \n')).toBe('q\n\n  indented\n\ttabbed');
  });

  it('is empty when there is no prompt at all (the caller exits 2)', () => {
    expect(composePrompt(true, undefined, '')).toBe('');
    expect(composePrompt(undefined, undefined, '')).toBe('');
    expect(composePrompt('   ', undefined, ' \n\n ')).toBe('');
  });

  it('drops a blank part instead of leaving an empty paragraph', () => {
    expect(composePrompt('   ', undefined, 'piped')).toBe('piped');
    expect(composePrompt('asked', undefined, '\n \n')).toBe('asked');
  });

  it('adds the words after the options, and takes stdin alone for -p -', () => {
    expect(composePrompt(true, 'why?', '')).toBe('why?');
    expect(composePrompt('explain', 'this', 'piped\n')).toBe('explain\n\nthis\n\npiped');
    expect(composePrompt('-', undefined, 'from stdin\n')).toBe('from stdin');
    expect(composePrompt('-', undefined, '')).toBe('');
  });
});
