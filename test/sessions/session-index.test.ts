import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { indexSessions } from '../../src/sessions/session-index.js';
import { HEADER, message, sessionText } from './fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ochat-index-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('indexSessions', () => {
  test('lists a session by its header and lines; a message over 1 MB is counted by its head, not read whole', () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    const entries = [message(1, 'user', 'first line\nsecond'), message(2, 'assistant', big)];
    writeFileSync(join(dir, `${HEADER.id}.jsonl`), `\uFEFF${sessionText(HEADER, entries)}`);
    const { sessions, unreadable } = indexSessions(dir);
    expect(unreadable).toEqual([]);
    expect(sessions).toEqual([
      expect.objectContaining({ id: HEADER.id, model: 'llama3.2', messages: 2, firstUserLine: 'first line' }),
    ]);
  });

  test('files that are not sessions are listed apart, each with why', () => {
    writeFileSync(join(dir, 'empty.jsonl'), '');
    writeFileSync(join(dir, 'text.jsonl'), 'hello\n');
    mkdirSync(join(dir, 'dir.jsonl'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling.jsonl'));
    writeFileSync(join(dir, 'notes.txt'), 'not a .jsonl: not looked at');
    const reasons = Object.fromEntries(indexSessions(dir).unreadable.map((u) => [u.id, u.reason]));
    expect(reasons).toEqual({
      empty: 'it is empty (0 bytes)',
      text: 'not a session file (line 1 is not JSON)',
      dir: 'it is a directory, not a regular file',
      dangling: `it is a symbolic link to ${join(dir, 'nowhere')}; its target does not exist`,
    });
  });
});
