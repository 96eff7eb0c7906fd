import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { LockFile, processAlive, processStartTime } from '../../src/platform/lock-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ochat-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pids: number[]) => (pid: number) => pids.includes(pid);

describe('LockFile', () => {
  test('the first process takes the lock and writes its pid; the second is told which pid holds it', () => {
    const path = join(dir, 's.lock');
    const first = new LockFile(path, 100, alive([100, 200]));
    expect(first.acquire()).toEqual({ ok: true });
    expect(readFileSync(path, 'utf8')).toBe('100\n');
    const second = new LockFile(path, 200, alive([100, 200]));
    expect(second.acquire()).toEqual({ ok: false, holder: { pid: 100 } });
    first.release();
    expect(second.acquire()).toEqual({ ok: true });
    expect(readFileSync(path, 'utf8')).toBe('200\n');
  });

  test('a lock whose process is dead is taken over', () => {
    const path = join(dir, 's.lock');
    writeFileSync(path, '4242\n');
    const lock = new LockFile(path, 300, alive([300]));
    expect(lock.acquire()).toEqual({ ok: true });
    expect(readFileSync(path, 'utf8')).toBe('300\n');
  });

  test('release leaves a lock alone that is no longer ours', () => {
    const path = join(dir, 's.lock');
    const lock = new LockFile(path, 100, alive([100]));
    lock.acquire();
    writeFileSync(path, '999\n');
    lock.release();
    expect(readFileSync(path, 'utf8')).toBe('999\n');
  });

  test('processAlive knows this process and rejects nonsense pids', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(0)).toBe(false);
    expect(processAlive(-1)).toBe(false);
    expect(processAlive(2 ** 22 + 12345)).toBe(false);
  });

  describe.skipIf(processStartTime(process.pid) === undefined)('with /proc (pid reuse)', () => {
    const start = processStartTime(process.pid)!;

    test('this process writes its pid and start time', () => {
      const path = join(dir, 's.lock');
      expect(new LockFile(path).acquire()).toEqual({ ok: true });
      expect(readFileSync(path, 'utf8')).toBe(`${process.pid} ${start}\n`);
    });

    test('a lock whose pid is alive but is another process now (reused pid) is taken over', () => {
      const path = join(dir, 's.lock');
      // This test's own pid stands in for the reused one: alive, but started at another time.
      writeFileSync(path, `${process.pid} ${Number(start) - 1}\n`);
      const lock = new LockFile(path, 300, processAlive);
      expect(lock.acquire()).toEqual({ ok: true });
      expect(readFileSync(path, 'utf8')).toBe('300\n');
    });

    test('the same pid and start time: held; a lock without a start time (older ochat): held while the pid lives', () => {
      const path = join(dir, 's.lock');
      for (const content of [`${process.pid} ${start}\n`, `${process.pid}\n`]) {
        writeFileSync(path, content);
        expect(new LockFile(path, 300, processAlive).acquire()).toEqual({
          ok: false,
          holder: { pid: process.pid },
        });
      }
    });
  });
});
