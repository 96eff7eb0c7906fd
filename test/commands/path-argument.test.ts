import { describe, expect, it } from 'vitest';
import { pathArgument } from '../../src/commands/path-argument.js';

describe('pathArgument', () => {
  it('takes off one pair of matching quotes, and reads backslash-escaped spaces as spaces', () => {
    expect(pathArgument("'/tmp/my chat.json'")).toBe('/tmp/my chat.json');
    expect(pathArgument('"my chat.json"')).toBe('my chat.json');
    expect(pathArgument('my\\ chat.json')).toBe('my chat.json');
  });

  it('leaves anything else as typed: unmatched or inner quotes, a plain name', () => {
    expect(pathArgument('"my chat.json')).toBe('"my chat.json');
    expect(pathArgument("it's.json")).toBe("it's.json");
    expect(pathArgument('notes.md')).toBe('notes.md');
    expect(pathArgument("'a' 'b'.json")).toBe("'a' 'b'.json");
  });
});
