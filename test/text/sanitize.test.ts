import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeTerminalText } from '../../src/text/sanitize.js';

describe('sanitizeTerminalText', () => {
  it('leaves plain text, newlines, tabs and unicode untouched', () => {
    const text = 'Hello, wörld! 你好 🎉 café\n\tindented — “quotes” ±';
    expect(sanitizeTerminalText(text)).toBe(text);
  });

  it('removes SGR colours and other CSI sequences', () => {
    expect(sanitizeTerminalText('\x1b[31mred\x1b[0m and \x1b[1;38;5;208mbold\x1b[m')).toBe('red and bold');
    expect(sanitizeTerminalText('a\x1b[2Jb\x1b[10;5Hc\x1b[?25ld\x1b[Ke')).toBe('abcde');
  });

  it('removes 8-bit CSI (0x9b) with its parameters', () => {
    expect(sanitizeTerminalText('x\x9b31my')).toBe('xy');
  });

  it('removes OSC hyperlinks and titles terminated by BEL or ST', () => {
    expect(sanitizeTerminalText('\x1b]8;;https://evil.example\x07click\x1b]8;;\x07')).toBe('click');
    expect(sanitizeTerminalText('\x1b]0;pwned title\x1b\\after')).toBe('after');
    expect(sanitizeTerminalText('\x9d2;title\x9cok')).toBe('ok');
  });

  it('removes an unterminated OSC to the end of the text', () => {
    expect(sanitizeTerminalText('keep\x1b]8;;https://evil')).toBe('keep');
  });

  it('removes DCS, APC, PM and SOS strings', () => {
    expect(sanitizeTerminalText('a\x1bPq#0;2;0;0;0\x1b\\b')).toBe('ab');
    expect(sanitizeTerminalText('a\x1b_Gf=100;data\x1b\\b')).toBe('ab');
    expect(sanitizeTerminalText('a\x1b^privacy\x1b\\b')).toBe('ab');
    expect(sanitizeTerminalText('a\x1bXsos\x1b\\b')).toBe('ab');
  });

  it('removes single ESC + char sequences and charset selections', () => {
    expect(sanitizeTerminalText('a\x1bcb\x1b7c\x1b8d\x1b(Be\x1b=f')).toBe('abcdef');
    expect(sanitizeTerminalText('trailing\x1b')).toBe('trailing');
  });

  it('removes C0 (except \\n, \\t) and C1 controls', () => {
    expect(sanitizeTerminalText('a\x00b\x07c\x08d\x0be\x0cf\x7fg\x85h\x80i\x8e')).toBe('abcdefghi');
  });

  it('turns \\r\\n into \\n and drops lone \\r', () => {
    expect(sanitizeTerminalText('one\r\ntwo\rthree\n')).toBe('one\ntwothree\n');
  });

  it('never leaves ESC, C1 or BEL in its output (property)', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom('\x1b', '\x1b[', '\x1b]', '\x07', '\x9b', '\x9d', '\r', '\x1b\\', '31m', ';'),
    );
    fc.assert(
      fc.property(fc.array(piece), (pieces) => {
        const out = sanitizeTerminalText(pieces.join(''));
        expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      }),
    );
  });

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = sanitizeTerminalText(text);
        expect(sanitizeTerminalText(once)).toBe(once);
      }),
    );
  });
});
