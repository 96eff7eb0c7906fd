import { describe, expect, it } from 'vitest';
import { composePrompt } from '../src/one-shot.js';

describe('composePrompt', () => {
  it('is the -p text alone when nothing is piped', () => {
    expect(composePrompt('explain this', '')).toBe('explain this');
  });

  it('is the piped text alone for a bare -p', () => {
    expect(composePrompt(true, 'line 1\nline 2\n')).toBe('line 1\nline 2');
    expect(composePrompt(undefined, 'piped')).toBe('piped');
  });

  it('puts the -p text first, then the piped text after a blank line', () => {
    expect(composePrompt('Summarize this log:', 'ERROR x\nERROR y\n\n\n')).toBe(
      'Summarize this log:\n\nERROR x\nERROR y',
    );
  });

  it('keeps the piped text exactly, except trailing whitespace', () => {
    expect(composePrompt('q', '  indented\n\ttabbed  \n')).toBe('q\n\n  indented\n\ttabbed');
  });

  it('is empty when there is no prompt at all (the caller exits 2)', () => {
    expect(composePrompt(true, '')).toBe('');
    expect(composePrompt(undefined, '')).toBe('');
    expect(composePrompt('   ', ' \n\n ')).toBe('');
  });

  it('drops a blank part instead of leaving an empty paragraph', () => {
    expect(composePrompt('   ', 'piped')).toBe('piped');
    expect(composePrompt('asked', '\n \n')).toBe('asked');
  });
});
