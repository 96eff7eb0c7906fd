import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Message } from '../../src/conversation/message.js';
import { parseSession } from '../../src/sessions/session-reader.js';
import { SessionRecorder } from '../../src/sessions/session-recorder.js';
import { SessionStore } from '../../src/sessions/session-store.js';
import { record } from './fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ochat-recorder-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const NOW = new Date('2026-12-03T06:00:00Z');
const msg = (id: number, content: string): Message => ({
  id,
  turn: 1,
  role: 'user',
  content,
  at: NOW.toISOString(),
});

function recorder(settings = { model: 'llama3.2', system: 'S', options: { temperature: 0.5 } }) {
  const errors: Error[] = [];
  const r = new SessionRecorder({
    store: new SessionStore(dir),
    cwd: '/work',
    now: () => NOW,
    headerSettings: () => settings,
    onError: (e) => errors.push(e),
  });
  return { r, errors };
}

describe('SessionRecorder', () => {
  test('writes no file until the first message; settings changed before it follow the header', () => {
    const { r } = recorder();
    r.recordSetting('think', true);
    r.recordSetting('system', undefined);
    expect(readdirSync(dir)).toEqual([]);
    expect(r.id).toBeUndefined();
    r.recordMessage(msg(1, 'hello'));
    const parsed = parseSession(readFileSync(join(dir, `${r.id}.jsonl`), 'utf8'));
    expect(parsed.header).toMatchObject({
      cwd: '/work',
      model: 'llama3.2',
      system: 'S',
      options: { temperature: 0.5 },
    });
    expect(parsed.entries.map((e) => e.type)).toEqual(['setting', 'setting', 'message']);
    expect(parsed.entries[1]).toMatchObject({ key: 'system', value: null });
    r.close();
  });

  test('closed before any message, it has nothing unsaved: no file was due (settings alone make no session)', () => {
    const { r } = recorder();
    r.recordSetting('think', true);
    expect(r.close()).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  test('records every kind of line, in order, and each is on disk when the call returns', () => {
    const { r } = recorder();
    r.recordMessage(msg(1, 'hello'));
    r.recordCompaction(record(1));
    r.recordCompactionFailure({ trigger: 'auto', reason: 'server down', model: 'm' });
    r.recordUncompact();
    r.recordReplaced([1]);
    const parsed = parseSession(readFileSync(join(dir, `${r.id}.jsonl`), 'utf8'));
    expect(parsed.entries.map((e) => e.type)).toEqual([
      'message',
      'compaction',
      'compaction-failed',
      'uncompact',
      'replaced',
    ]);
    r.close();
  });

  test('a directory it cannot create is reported once, and the chat goes on', () => {
    const errors: Error[] = [];
    // A path under a regular file: mkdir fails with ENOTDIR.
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const r = new SessionRecorder({
      store: new SessionStore(join(blocker, 'sessions')),
      cwd: '/',
      now: () => NOW,
      headerSettings: () => ({ options: {} }),
      onError: (e) => errors.push(e),
    });
    r.recordMessage(msg(1, 'a'));
    r.recordMessage(msg(2, 'b'));
    expect(errors).toHaveLength(1);
  });
});
