import { closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isatty as nodeIsatty } from 'node:tty';
import { expect, it } from 'vitest';
import { isatty, openEarlyTerminal } from '../../src/platform/early-terminal.js';

it('isatty answers as node:tty does, for descriptors of every kind and values that are none', () => {
  const file = openSync(join(tmpdir(), `ochat-early-terminal-${process.pid}`), 'w');
  const devNull = openSync('/dev/null', 'r');
  try {
    for (const fd of [0, 1, 2, file, devNull, 9999, -1, 1.5, Number.NaN, 2 ** 31, 2 ** 31 - 1]) {
      expect(isatty(fd), String(fd)).toBe(nodeIsatty(fd));
    }
  } finally {
    closeSync(file);
    closeSync(devNull);
  }
});

it('gives no early terminal when stdin or stdout is no terminal (the streams are used then)', () => {
  // The test runner's stdio are pipes; on a terminal, test/e2e/first-frame.test.ts draws through it.
  expect(nodeIsatty(0) && nodeIsatty(1)).toBe(false);
  expect(openEarlyTerminal((text) => text)).toBeUndefined();
});
