import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShell } from '../../src/tools/run-shell.js';
import { makeTempDir } from './temp-sandbox.js';

const options = () => ({ cwd: makeTempDir(), timeoutMs: 0, maxOutputChars: 10_000 });

describe('runShell', () => {
  // Node blames the shell (`spawn sh ENOENT`) or throws a bare `spawn ENOTDIR`: the folder is named instead.
  it('names a working directory that is missing or a file, never rejects', async () => {
    const missing = join(makeTempDir(), 'gone');
    await expect(runShell('true', { ...options(), cwd: missing })).resolves.toMatchObject({
      exitCode: null,
      spawnError: `the working directory ${missing} does not exist`,
    });
    const file = join(makeTempDir(), 'a-file');
    writeFileSync(file, '');
    await expect(runShell('true', { ...options(), cwd: file })).resolves.toMatchObject({
      exitCode: null,
      spawnError: `the working directory ${file} is not a folder`,
    });
  });

  it('hands each piece of output to onOutput as it arrives, stdout and stderr alike', async () => {
    const pieces: string[] = [];
    const result = await runShell('echo one; sleep 0.2; echo two >&2', {
      ...options(),
      onOutput: (chunk) => pieces.push(chunk),
    });
    expect(pieces).toEqual(['one\n', 'two\n']);
    expect(result.output).toBe('one\ntwo\n');
  });

  it('gives the command an empty stdin: a read ends at once instead of waiting', async () => {
    const result = await runShell('cat; read line; echo "read: $?"', options());
    expect(result).toMatchObject({ exitCode: 0, output: 'read: 1\n' });
  });

  // How fast is the end-to-end test's business (Ctrl+C on a TERM-proof child, test/e2e/shell.test.ts).
  it('a cancel stops even a process that ignores SIGTERM', async () => {
    const controller = new AbortController();
    const running = runShell(`trap '' TERM; echo ready; sleep 30; sleep 30`, {
      ...options(),
      signal: controller.signal,
      onOutput: () => controller.abort(),
    });
    const result = await running;
    expect(result).toMatchObject({ aborted: true, signal: 'SIGKILL', output: 'ready\n' });
  });
});
