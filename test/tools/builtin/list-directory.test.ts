import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listDirectoryTool } from '../../../src/tools/builtin/list-directory.js';
import { makeContext, makeTempDir, writeTree } from '../temp-sandbox.js';

describe('list_directory', () => {
  it('lists sorted entries with directories marked', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'src/b.ts': '', 'src/a.ts': '', 'src/lib/x.ts': '', 'src/.hidden': '' });
    const args = { path: 'src' };
    const outcome = await listDirectoryTool.run(args, makeContext(cwd));
    expect(outcome).toMatchObject({ ok: true, output: '.hidden\na.ts\nb.ts\nlib/' });
    expect(listDirectoryTool.summaryLine(args, outcome)).toBe('listed src/ (4 entries)');
  });

  it('defaults to the working directory', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'only.txt': '' });
    const outcome = await listDirectoryTool.run({}, makeContext(cwd));
    expect(outcome.output).toBe('only.txt');
    expect(listDirectoryTool.summaryLine({}, outcome)).toBe('listed ./ (1 entry)');
    expect(listDirectoryTool.keyArgument({})).toBe('.');
  });

  it('says so for an empty directory', async () => {
    const cwd = makeTempDir();
    fs.mkdirSync(path.join(cwd, 'empty'));
    const outcome = await listDirectoryTool.run({ path: 'empty/' }, makeContext(cwd));
    expect(outcome.output).toBe('(empty directory)');
    expect(listDirectoryTool.summaryLine({ path: 'empty/' }, outcome)).toBe('listed empty/ (0 entries)');
  });

  it('reports a missing directory and a file given as a directory', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'file.txt': 'x' });
    const missing = await listDirectoryTool.run({ path: 'nope' }, makeContext(cwd));
    expect(listDirectoryTool.summaryLine({ path: 'nope' }, missing)).toBe('❌ list nope/ (not found)');
    const file = await listDirectoryTool.run({ path: 'file.txt' }, makeContext(cwd));
    expect(file.ok).toBe(false);
    expect(file.output).toContain('read_file');
  });

  it('refuses directories outside the sandbox unless allowed', async () => {
    const cwd = makeTempDir();
    const other = makeTempDir('ochat-other-');
    writeTree(other, { 'x.txt': '' });
    expect((await listDirectoryTool.run({ path: other }, makeContext(cwd))).ok).toBe(false);
    expect((await listDirectoryTool.run({ path: '..' }, makeContext(cwd))).ok).toBe(false);
    const allowed = await listDirectoryTool.run({ path: other }, makeContext(cwd, { allowedPaths: [other] }));
    expect(allowed).toMatchObject({ ok: true, output: 'x.txt' });
  });
});
