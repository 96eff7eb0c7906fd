import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  bufferLines,
  parseSession,
  parseSessionLines,
  SessionFileError,
} from '../../src/sessions/session-reader.js';
import { HEADER, message, record, sessionText } from './fixtures.js';

const ENTRIES = [
  message(1, 'user', 'hello'),
  message(2, 'assistant', 'hi'),
  { type: 'compaction' as const, record: record(2) },
  message(3, 'user', 'more'),
];

describe('parseSession', () => {
  test('reads the header and every entry of a whole file', () => {
    const text = sessionText(HEADER, ENTRIES);
    const parsed = parseSession(text);
    expect(parsed.header).toEqual(HEADER);
    expect(parsed.entries).toEqual(ENTRIES);
    expect(parsed.notices).toEqual([]);
    expect(parsed.readOnly).toBeUndefined();
    expect(parsed.validBytes).toBe(Buffer.byteLength(text));
  });

  test('skips a torn last line with a notice, stays writable, and counts only the complete lines', () => {
    const whole = sessionText(HEADER, ENTRIES.slice(0, 3));
    const torn = `${whole}{"type":"message","message":{"id":3,"tur`;
    const parsed = parseSession(torn, 'session x');
    expect(parsed.entries).toEqual(ENTRIES.slice(0, 3));
    expect(parsed.notices).toEqual([
      'session x: the last line was cut short (ochat stopped mid-write); it was skipped.',
    ]);
    expect(parsed.readOnly).toBeUndefined();
    expect(parsed.validBytes).toBe(Buffer.byteLength(whole));
  });

  test('keeps a last line that is whole but lost only its newline', () => {
    const text = sessionText(HEADER, ENTRIES).slice(0, -1);
    const parsed = parseSession(text);
    expect(parsed.entries).toEqual(ENTRIES);
    expect(parsed.notices).toEqual([]);
  });

  test('a corrupt line elsewhere is reported by its line number and makes the session read-only', () => {
    const lines = sessionText(HEADER, ENTRIES).split('\n');
    lines[2] = '{"type":"message", garbage';
    const parsed = parseSession(lines.join('\n'), 's');
    expect(parsed.entries).toEqual([ENTRIES[0], ENTRIES[2], ENTRIES[3]]);
    expect(parsed.notices[0]).toBe('s: line 3 is corrupt and was skipped.');
    expect(parsed.readOnly).toBe('line 3 is corrupt');
    expect(parsed.notices.at(-1)).toContain('read-only');
  });

  test('a line of valid JSON that is not a valid entry is corrupt too', () => {
    const lines = sessionText(HEADER, ENTRIES).split('\n');
    lines[1] = '{"type":"message","message":{"id":"one"}}';
    const parsed = parseSession(lines.join('\n'), 's');
    expect(parsed.readOnly).toBe('line 2 is corrupt');
    expect(parsed.notices[0]).toContain('line 2 is corrupt (a message has no id or turn)');
  });

  test('a file from a newer format is read-only and its unknown lines are skipped quietly', () => {
    const text = `${sessionText({ ...HEADER, version: 2 }, ENTRIES)}{"type":"hologram","x":1}\n`;
    const parsed = parseSession(text, 's');
    expect(parsed.readOnly).toContain('newer ochat (format 2; this one reads 1)');
    expect(parsed.entries).toEqual(ENTRIES);
    expect(parsed.notices).toHaveLength(1);
  });

  test('invalid UTF-8 bytes: every offset is in bytes, the file is not one byte longer for them', () => {
    const text = Buffer.from(sessionText(HEADER, ENTRIES));
    const at = text.indexOf('hello');
    text[at] = 0xff;
    text[at + 1] = 0xc3;
    const parsed = parseSession(text);
    expect(parsed.validBytes).toBe(text.length);
    expect(parsed.readOnly).toBeUndefined();
    expect(parsed.entries[0]).toEqual(message(1, 'user', '\uFFFD\uFFFDllo'));
  });

  test('a UTF-8 BOM before the header (an editor) is read past', () => {
    const text = `\uFEFF${sessionText(HEADER, ENTRIES)}`;
    const parsed = parseSession(text);
    expect(parsed.header).toEqual(HEADER);
    expect(parsed.validBytes).toBe(Buffer.byteLength(text));
  });

  test('a line over the size limit is skipped as it streams past and makes the session read-only', () => {
    const lines = bufferLines(Buffer.from(sessionText(HEADER, ENTRIES)), 200);
    const parsed = parseSessionLines(lines, 's');
    expect(parsed.notices[0]).toMatch(/^s: line \d+ is longer than/);
    expect(parsed.readOnly).toMatch(/too long/);
  });

  test('a file without a session header is not a session', () => {
    expect(() => parseSession('hello\n')).toThrow(SessionFileError);
    expect(() => parseSession('{"type":"message"}\n')).toThrow(/not a session file/);
    expect(() => parseSession('')).toThrow(SessionFileError);
  });

  test('property: a file cut at any byte opens, with the complete lines before the cut and nothing else', () => {
    const text = sessionText(HEADER, ENTRIES);
    const headerBytes = Buffer.byteLength(`${JSON.stringify(HEADER)}\n`);
    fc.assert(
      fc.property(fc.integer({ min: headerBytes, max: text.length }), (cut) => {
        const parsed = parseSession(text.slice(0, cut));
        expect(parsed.readOnly).toBeUndefined();
        expect(ENTRIES.slice(0, parsed.entries.length)).toEqual(parsed.entries);
        // Every line that ended before the cut was kept.
        const completeLines = text.slice(0, cut).split('\n').length - 2;
        expect(parsed.entries.length).toBeGreaterThanOrEqual(completeLines);
      }),
    );
  });
});
