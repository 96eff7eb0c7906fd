import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { describeErrno, fileErrorReason } from '../../src/platform/errno.js';
import { describeError } from '../../src/text/describe-error.js';

const dir = mkdtempSync(join(tmpdir(), 'ochat-errno-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error a real system call throws. */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('it did not throw');
}

describe('a failed system call in words', () => {
  test('real errors of Node: the reason and the path, never the errno text', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const socket = join(dir, 'a.sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const cases: [unknown, string][] = [
        [thrown(() => readFileSync(dir)), 'it is a folder'],
        [
          thrown(() => openSync(join(dir, 'missing', 'x'), 'r')),
          `no such file or folder (${join(dir, 'missing', 'x')})`,
        ],
        [
          thrown(() => openSync(join(file, 'x'), 'w')),
          `a part of its path is not a folder (${join(file, 'x')})`,
        ],
        [thrown(() => openSync(file, 'wx')), `it already exists (${file})`],
        [
          thrown(() => openSync(socket, 'r')),
          `it is no file that can be opened: a socket, a named pipe nobody reads, or a device that is not there (${socket})`,
        ],
      ];
      for (const [error, words] of cases) {
        expect(describeError(error)).toBe(words);
        expect(describeError(error)).not.toMatch(/\bE[A-Z]+:/);
      }
    } finally {
      server.close();
    }
  });

  test('the codes a full or read-only disk gives; a rename names both paths', () => {
    const errno = (code: string, extra: object = {}) =>
      Object.assign(new Error(`${code}: raw text`), { code, ...extra });
    expect(describeErrno(errno('ENOSPC', { path: '/d/x' }))).toBe('the disk is full (/d/x)');
    expect(describeErrno(errno('EROFS'))).toBe('the file system is read-only');
    expect(describeErrno(errno('EXDEV', { path: '/a', dest: '/b' }))).toBe(
      'it is on another file system (/a → /b)',
    );
    expect(fileErrorReason(errno('ENXIO', { path: '/p' }))).toMatch(/^it is no file that can be opened/);
  });

  test('anything else keeps its own message: an unknown code, a network error, a plain error', () => {
    expect(describeErrno(Object.assign(new Error('boom'), { code: 'ERR_SOMETHING' }))).toBeUndefined();
    expect(describeError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(
      'connect ECONNREFUSED',
    );
    expect(describeError(new Error('plain'))).toBe('plain');
    expect(describeError('text')).toBe('text');
  });
});
