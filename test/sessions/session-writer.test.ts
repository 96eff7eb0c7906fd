import { ftruncateSync, mkdtempSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseSession } from '../../src/sessions/session-reader.js';
import {
  type SessionSaveError,
  SessionWriter,
  type WriterFileSystem,
} from '../../src/sessions/session-writer.js';
import { HEADER, message, sessionText } from './fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ochat-writer-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The real file system with a disk that fills up: while `full`, a write takes at most `room`
 * bytes (a short count), and the next one fails with ENOSPC, as Linux does on a full disk.
 */
function fillingDisk() {
  const disk = { full: false, room: 10, shortWrites: 0 };
  const fs: WriterFileSystem = {
    writeSync(fd, data, offset, length, position) {
      if (!disk.full) return writeSync(fd, data, offset, length, position);
      if (disk.room === 0)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      const taken = Math.min(disk.room, length);
      disk.room = 0;
      disk.shortWrites++;
      return writeSync(fd, data, offset, taken, position);
    },
    ftruncateSync,
  };
  return { disk, fs };
}

describe('SessionWriter', () => {
  test('opening an existing file changes nothing in it; the first line written adds a missing final newline', () => {
    const path = join(dir, 's.jsonl');
    const text = sessionText(HEADER, [message(1, 'user', 'hello')]).slice(0, -1);
    writeFileSync(path, text);
    const writer = new SessionWriter(path, { validBytes: Buffer.byteLength(text) });
    expect(readFileSync(path, 'utf8')).toBe(text);
    writer.append(message(2, 'assistant', 'hi'));
    writer.close();
    const parsed = parseSession(readFileSync(path));
    expect(parsed.readOnly).toBeUndefined();
    expect(parsed.entries).toEqual([message(1, 'user', 'hello'), message(2, 'assistant', 'hi')]);
  });

  test('a torn last line is overwritten by the next line, never glued to it', () => {
    const path = join(dir, 's.jsonl');
    const whole = sessionText(HEADER, [message(1, 'user', 'hello')]);
    writeFileSync(path, `${whole}{"type":"message","message":{"id":2,"tu`);
    const writer = new SessionWriter(path, { validBytes: Buffer.byteLength(whole) });
    writer.append(message(2, 'assistant', 'hi'));
    writer.close();
    expect(readFileSync(path, 'utf8')).toBe(
      sessionText(HEADER, [message(1, 'user', 'hello'), message(2, 'assistant', 'hi')]),
    );
  });

  test('a full disk (a short write, then ENOSPC): said once, the torn part cut off, the kept lines written whole when there is room', () => {
    const path = join(dir, 's.jsonl');
    const { disk, fs } = fillingDisk();
    const errors: SessionSaveError[] = [];
    const recovered: number[] = [];
    const writer = new SessionWriter(path, {
      fs,
      onError: (error) => errors.push(error),
      onRecovered: (lines) => recovered.push(lines),
    });
    writer.append(HEADER);
    writer.append(message(1, 'user', 'one'));
    disk.full = true;
    for (let id = 2; id <= 6; id++) writer.append(message(id, id % 2 ? 'user' : 'assistant', `m${id}`));
    expect(disk.shortWrites).toBe(1);
    expect(errors.map((e) => e.reason)).toEqual(['the disk is full']);
    expect(errors[0].message).toBe(`the disk is full (${path})`);
    expect(writer.unsavedLines).toBe(5);
    // Nothing torn is left behind: the file holds its whole lines only.
    expect(readFileSync(path, 'utf8')).toBe(sessionText(HEADER, [message(1, 'user', 'one')]));

    disk.full = false;
    writer.append(message(7, 'user', 'm7'));
    expect(recovered).toEqual([6]);
    writer.close();
    const parsed = parseSession(readFileSync(path));
    expect(parsed.notices).toEqual([]);
    expect(parsed.entries.map((e) => (e.type === 'message' ? e.message.content : e.type))).toEqual([
      'one',
      'm2',
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
    ]);
  });

  test('close tries the kept lines once more', () => {
    const path = join(dir, 's.jsonl');
    const { disk, fs } = fillingDisk();
    const writer = new SessionWriter(path, { fs });
    writer.append(HEADER);
    disk.full = true;
    disk.room = 0;
    writer.append(message(1, 'user', 'one'));
    disk.full = false;
    writer.close();
    expect(readFileSync(path, 'utf8')).toBe(sessionText(HEADER, [message(1, 'user', 'one')]));
  });
});
