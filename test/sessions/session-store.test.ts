import { appendFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseSession } from '../../src/sessions/session-reader.js';
import { SessionNotFoundError, SessionStore, sessionsDir } from '../../src/sessions/session-store.js';
import { HEADER, message } from './fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ochat-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const NOW = new Date('2026-12-03T06:00:00Z');
const base = { created: NOW.toISOString(), cwd: '/p', model: 'llama3.2', options: {} };

describe('SessionStore', () => {
  test('lives under $XDG_DATA_HOME/ochat/sessions, else ~/.local/share/ochat/sessions', () => {
    expect(sessionsDir({ XDG_DATA_HOME: '/xdg', HOME: '/h' })).toBe('/xdg/ochat/sessions');
    expect(sessionsDir({ HOME: '/h' })).toBe('/h/.local/share/ochat/sessions');
  });

  test('create writes the header; appended lines are in the file at once and read back in order', () => {
    const store = new SessionStore(dir);
    const session = store.create(base, NOW);
    expect(session.parsed.header.id).toMatch(/^20261203-060000-[0-9a-f]{4}$/);
    session.writer!.append(message(1, 'user', 'hello'));
    // No close: what a killed process leaves is what is on disk now.
    const parsed = parseSession(readFileSync(session.path, 'utf8'));
    expect(parsed.header).toMatchObject({ type: 'session', version: 1, cwd: '/p', model: 'llama3.2' });
    expect(parsed.entries).toEqual([message(1, 'user', 'hello')]);
    session.close();
  });

  test('open takes the lock; a second process gets the session read-only and is told who holds it', () => {
    const mine = new SessionStore(dir, 100, (pid) => pid === 100 || pid === 200);
    const created = mine.create(base, NOW);
    const other = new SessionStore(dir, 200, (pid) => pid === 100 || pid === 200);
    const second = other.open(created.parsed.header.id);
    expect(second.writer).toBeUndefined();
    expect(second.holder).toBe(100);
    expect(second.readOnly).toBe('another ochat (pid 100) has it open');
    created.close();
    const third = other.open(created.parsed.header.id);
    expect(third.readOnly).toBeUndefined();
    third.close();
  });

  test('a lock another ochat is still writing (empty, just made) names no "pid 0"', () => {
    const mine = new SessionStore(dir, 100, () => false);
    const created = mine.create(base, NOW);
    const id = created.parsed.header.id;
    created.close();
    writeFileSync(join(dir, `${id}.lock`), '');
    const opened = new SessionStore(dir, 200, () => false).open(id);
    expect(opened.readOnly).toBe('another ochat has it open');
    expect(() => new SessionStore(dir, 200, () => false).delete(id)).toThrow(
      `Session ${id} is open in another ochat.`,
    );
    opened.close();
    rmSync(join(dir, `${id}.lock`));
  });

  test('opening after a torn write cuts the fragment off, so the next line is whole', () => {
    const store = new SessionStore(dir);
    const created = store.create(base, NOW);
    created.writer!.append(message(1, 'user', 'hello'));
    created.close();
    appendFileSync(created.path, '{"type":"message","mess');
    const reopened = store.open(created.parsed.header.id);
    expect(reopened.parsed.notices[0]).toContain('cut short');
    reopened.writer!.append(message(2, 'assistant', 'hi'));
    reopened.close();
    const parsed = parseSession(readFileSync(created.path, 'utf8'));
    expect(parsed.notices).toEqual([]);
    expect(parsed.entries).toEqual([message(1, 'user', 'hello'), message(2, 'assistant', 'hi')]);
  });

  test('a corrupt or newer session opens without a writer, and its file is left untouched', () => {
    const store = new SessionStore(dir);
    const text = `${JSON.stringify({ ...HEADER, version: 9 })}\n${JSON.stringify(message(1, 'user', 'x'))}\n`;
    writeFileSync(join(dir, `${HEADER.id}.jsonl`), text);
    const opened = store.open(HEADER.id);
    expect(opened.writer).toBeUndefined();
    expect(opened.readOnly).toContain('newer ochat');
    opened.close();
    expect(readFileSync(join(dir, `${HEADER.id}.jsonl`), 'utf8')).toBe(text);
  });

  test('list gives id, name, model, messages, last activity and first user line, newest first', () => {
    const store = new SessionStore(dir);
    const a = store.create({ ...base, cwd: '/a' }, NOW);
    // An assistant line before it (quoting a role, escaped in JSON) is not the first user message.
    a.writer!.append(message(1, 'assistant', 'quoting {"role":"user"}'));
    a.writer!.append(message(2, 'user', 'first question\nsecond line'));
    a.writer!.append(message(3, 'assistant', 'answer'));
    a.writer!.append({ type: 'setting', at: NOW.toISOString(), key: 'name', value: 'plans' });
    a.writer!.append({ type: 'setting', at: NOW.toISOString(), key: 'model', value: 'qwen3' });
    a.writer!.append({ type: 'setting', at: NOW.toISOString(), key: 'meter', value: { charsPerToken: 3 } });
    a.close();
    const b = store.create({ ...base, cwd: '/b' }, new Date('2026-12-03T07:00:00Z'));
    b.close();
    utimesSync(a.path, new Date('2026-12-01'), new Date('2026-12-01'));
    writeFileSync(join(dir, 'junk.jsonl'), 'not a session\n');
    const list = store.list();
    expect(list.map((s) => s.id)).toEqual([b.parsed.header.id, a.parsed.header.id]);
    expect(list[1]).toMatchObject({
      name: 'plans',
      model: 'qwen3',
      messages: 3,
      firstUserLine: 'first question',
      cwd: '/a',
    });
    expect(store.newestIn('/a')?.id).toBe(a.parsed.header.id);
    expect(store.newestIn('/nowhere')).toBeUndefined();
  });

  test('find takes an id, a unique id prefix or a name; anything else is a clear error', () => {
    const store = new SessionStore(dir);
    const a = store.create(base, NOW);
    a.writer!.append({ type: 'setting', at: NOW.toISOString(), key: 'name', value: 'plans' });
    a.close();
    const id = a.parsed.header.id;
    expect(store.find(id).id).toBe(id);
    expect(store.find('plans').id).toBe(id);
    expect(store.find(id.slice(0, 10)).id).toBe(id);
    expect(() => store.find('nope')).toThrow(SessionNotFoundError);
    expect(() => store.find('nope')).toThrow('No session "nope". ochat --list-sessions lists them.');
    store.create(base, NOW).close();
    expect(() => store.find('2026')).toThrow(/matches 2 sessions/);
  });

  test('delete removes a session, but not one another live process holds', () => {
    const holder = new SessionStore(dir, 100, (pid) => pid === 100 || pid === 200);
    const held = holder.create(base, NOW);
    const other = new SessionStore(dir, 200, (pid) => pid === 100 || pid === 200);
    expect(() => other.delete(held.parsed.header.id)).toThrow('open in another ochat (pid 100)');
    held.close();
    other.delete(held.parsed.header.id);
    expect(other.list()).toEqual([]);
  });
});
