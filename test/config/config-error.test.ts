import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { describeValue } from '../../src/config/describe-value.js';

describe('ConfigError', () => {
  it('formats each issue as file:line:col: key: message and exposes the first', () => {
    const error = new ConfigError('~/.config/ochat/config.yml', [
      { line: 12, column: 3, key: 'compaction.reserv', message: 'unknown key (did you mean "reserve"?)' },
      { line: 14, column: 10, key: 'tools.max_steps', message: 'must be a positive integer, got 0' },
    ]);
    expect(error.message).toBe(
      '~/.config/ochat/config.yml:12:3: compaction.reserv: unknown key (did you mean "reserve"?)\n' +
        '~/.config/ochat/config.yml:14:10: tools.max_steps: must be a positive integer, got 0',
    );
    expect([error.line, error.column, error.key]).toEqual([12, 3, 'compaction.reserv']);
    expect(error.name).toBe('ConfigError');
    expect(error).toBeInstanceOf(Error);
  });

  it('leaves out the parts a whole-file problem does not have', () => {
    const error = new ConfigError('/etc/o.yml', [{ message: 'file not found' }]);
    expect(error.message).toBe('/etc/o.yml: file not found');
    expect(error.line).toBeUndefined();
  });
});

describe('describeValue', () => {
  it('quotes strings, cuts long ones, and names collections by kind', () => {
    expect(describeValue('high')).toBe('"high"');
    expect(describeValue('x'.repeat(100))).toBe(`"${'x'.repeat(40)}…"`);
    expect(describeValue(1.5)).toBe('1.5');
    expect(describeValue(null)).toBe('null');
    expect(describeValue([1])).toBe('a list');
    expect(describeValue({ a: 1 })).toBe('a mapping');
    expect(describeValue(undefined)).toBe('nothing');
  });
});
