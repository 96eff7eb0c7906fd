import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_LIMIT, readFileTool } from '../../../src/tools/builtin/read-file.js';
import { makeContext, makeFifo, makeTempDir, writeTree } from '../temp-sandbox.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('read_file', () => {
  it('reads a whole file and summarizes the lines read', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'src/app.ts': `${lines(3)}\n` });
    const args = { path: 'src/app.ts' };
    const outcome = await readFileTool.run(args, makeContext(cwd));
    expect(outcome).toMatchObject({ ok: true, output: 'line 1\nline 2\nline 3' });
    expect(readFileTool.summaryLine(args, outcome)).toBe('read src/app.ts (lines 1–3 of 3)');
    expect(readFileTool.keyArgument(args)).toBe('src/app.ts');
  });

  it('honours offset and limit and says how to read on', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'big.txt': lines(340) });
    const args = { path: 'big.txt', offset: 10, limit: 5 };
    const outcome = await readFileTool.run(args, makeContext(cwd));
    expect(outcome.ok).toBe(true);
    expect(outcome.output.split('\n').slice(0, 5)).toEqual([
      'line 10',
      'line 11',
      'line 12',
      'line 13',
      'line 14',
    ]);
    expect(outcome.output).toContain('[lines 10–14 of 340; use offset=15 to read on]');
    expect(readFileTool.summaryLine(args, outcome)).toBe('read big.txt (lines 10–14 of 340)');
  });

  it('applies the default limit to long files', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'huge.txt': lines(DEFAULT_READ_LIMIT + 5) });
    const outcome = await readFileTool.run({ path: 'huge.txt' }, makeContext(cwd));
    expect(outcome.details).toMatchObject({ startLine: 1, endLine: DEFAULT_READ_LIMIT });
    expect(outcome.output).toContain(`use offset=${DEFAULT_READ_LIMIT + 1}`);
  });

  it('refuses an offset past the end', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'a.txt': lines(3) });
    const outcome = await readFileTool.run({ path: 'a.txt', offset: 9 }, makeContext(cwd));
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toContain('has 3 lines');
  });

  it('reports a missing file', async () => {
    const args = { path: 'missing.ts' };
    const outcome = await readFileTool.run(args, makeContext(makeTempDir()));
    expect(outcome).toMatchObject({ ok: false, output: 'File not found: missing.ts' });
    expect(readFileTool.summaryLine(args, outcome)).toBe('❌ read missing.ts (file not found)');
  });

  it('refuses binary files', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'image.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) });
    const args = { path: 'image.png' };
    const outcome = await readFileTool.run(args, makeContext(cwd));
    expect(outcome.ok).toBe(false);
    expect(readFileTool.summaryLine(args, outcome)).toBe('❌ read image.png (binary file)');
  });

  it('refuses a directory and points at list_directory', async () => {
    const cwd = makeTempDir();
    fs.mkdirSync(path.join(cwd, 'src'));
    const outcome = await readFileTool.run({ path: 'src' }, makeContext(cwd));
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toContain('list_directory');
  });

  it('refuses paths outside the sandbox, .. or absolute', async () => {
    const cwd = makeTempDir();
    const outside = makeTempDir('ochat-outside-');
    writeTree(outside, { 'secret.txt': 'secret' });
    for (const requested of [path.join(outside, 'secret.txt'), `../${path.basename(outside)}/secret.txt`]) {
      const outcome = await readFileTool.run({ path: requested }, makeContext(cwd));
      expect(outcome.ok).toBe(false);
      expect(outcome.output).not.toContain('secret\n');
      expect(readFileTool.summaryLine({ path: requested }, outcome)).toBe(
        `❌ read ${requested} (access denied)`,
      );
    }
  });

  it('refuses a symlink that escapes the sandbox', async () => {
    const cwd = makeTempDir();
    const outside = makeTempDir('ochat-outside-');
    writeTree(outside, { 'secret.txt': 'secret' });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(cwd, 'innocent.txt'));
    const outcome = await readFileTool.run({ path: 'innocent.txt' }, makeContext(cwd));
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toContain('symbolic link');
  });

  it('reads from allowed_paths', async () => {
    const cwd = makeTempDir();
    const docs = makeTempDir('ochat-docs-');
    writeTree(docs, { 'guide.md': 'hello' });
    const outcome = await readFileTool.run(
      { path: path.join(docs, 'guide.md') },
      makeContext(cwd, { allowedPaths: [docs] }),
    );
    expect(outcome).toMatchObject({ ok: true, output: 'hello' });
  });

  it('summarizes an empty file', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'empty.txt': '' });
    const outcome = await readFileTool.run({ path: 'empty.txt' }, makeContext(cwd));
    expect(readFileTool.summaryLine({ path: 'empty.txt' }, outcome)).toBe('read empty.txt (empty)');
  });

  it('refuses a FIFO or a device instead of blocking on it forever', async () => {
    const cwd = makeTempDir();
    makeFifo(cwd, 'pipe');
    const outcome = await readFileTool.run({ path: 'pipe' }, makeContext(cwd));
    expect(outcome).toMatchObject({ ok: false, details: { error: 'not a regular file' } });
    expect(outcome.output).toBe('pipe is a named pipe (FIFO), not a regular file; only files can be read.');
    const device = await readFileTool.run(
      { path: '/dev/zero' },
      makeContext(cwd, { allowedPaths: ['/dev'] }),
    );
    expect(device.output).toBe('/dev/zero is a device, not a regular file; only files can be read.');
  });
});
