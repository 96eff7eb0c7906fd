import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileTool } from '../../../src/tools/builtin/write-file.js';
import { makeContext, makeFifo, makeTempDir, writeTree } from '../temp-sandbox.js';

describe('write_file', () => {
  it('creates a file with its parent directories and summarizes the line count', async () => {
    const cwd = makeTempDir();
    const content = `${Array.from({ length: 42 }, (_, i) => `note ${i}`).join('\n')}\n`;
    const args = { path: 'docs/notes.md', content };
    const outcome = await writeFileTool.run(args, makeContext(cwd));
    expect(outcome.ok).toBe(true);
    expect(outcome.details).toMatchObject({ lines: 42, created: true });
    expect(fs.readFileSync(path.join(cwd, 'docs/notes.md'), 'utf8')).toBe(content);
    expect(writeFileTool.summaryLine(args, outcome)).toBe('wrote docs/notes.md (42 lines)');
  });

  it('overwrites an existing file', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'a.txt': 'old' });
    const outcome = await writeFileTool.run({ path: 'a.txt', content: 'new' }, makeContext(cwd));
    expect(outcome.output).toContain('Overwrote');
    expect(fs.readFileSync(path.join(cwd, 'a.txt'), 'utf8')).toBe('new');
    expect(writeFileTool.summaryLine({ path: 'a.txt', content: 'new' }, outcome)).toBe(
      'wrote a.txt (1 line)',
    );
  });

  it('refuses to write outside the sandbox, also through a symlinked directory', async () => {
    const cwd = makeTempDir();
    const outside = makeTempDir('ochat-outside-');
    fs.symlinkSync(outside, path.join(cwd, 'escape'));
    for (const requested of ['../evil.txt', path.join(outside, 'evil.txt'), 'escape/evil.txt']) {
      const outcome = await writeFileTool.run({ path: requested, content: 'x' }, makeContext(cwd));
      expect(outcome.ok).toBe(false);
    }
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(path.join(path.dirname(cwd), 'evil.txt'))).toBe(false);
  });

  it('refuses to replace a directory', async () => {
    const cwd = makeTempDir();
    fs.mkdirSync(path.join(cwd, 'dir'));
    const outcome = await writeFileTool.run({ path: 'dir', content: 'x' }, makeContext(cwd));
    expect(writeFileTool.summaryLine({ path: 'dir', content: 'x' }, outcome)).toBe(
      '❌ write dir (is a directory)',
    );
  });

  it('refuses to write into a FIFO (which would block until someone reads it)', async () => {
    const cwd = makeTempDir();
    makeFifo(cwd, 'pipe');
    const outcome = await writeFileTool.run({ path: 'pipe', content: 'x' }, makeContext(cwd));
    expect(outcome).toMatchObject({ ok: false, details: { error: 'not a regular file' } });
    expect(outcome.output).toBe('pipe is a named pipe (FIFO), not a regular file; it was not written.');
  });
});

describe('write_file preview and approval scope', () => {
  it('previews a change as a diff of the file on disk, a new file as its lines; writes nothing', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'a.txt': 'one\ntwo\n' });
    const ctx = makeContext(cwd);
    const change = await writeFileTool.preview?.({ path: 'a.txt', content: 'one\n2\n' }, ctx);
    expect(change?.lines.map((l) => l.kind)).toEqual(['hunk', 'context', 'remove', 'add']);
    expect(fs.readFileSync(path.join(cwd, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    const fresh = await writeFileTool.preview?.({ path: 'new/b.txt', content: 'x\n' }, ctx);
    expect(fresh?.title).toBe('new file, 1 line, 2 bytes');
    expect(fs.existsSync(path.join(cwd, 'new'))).toBe(false);
  });

  it('has no preview and no "always" for a path it will refuse; a directory gets no preview', async () => {
    const cwd = makeTempDir();
    fs.mkdirSync(path.join(cwd, 'dir'));
    const ctx = makeContext(cwd);
    expect(await writeFileTool.preview?.({ path: '../outside.txt', content: 'x' }, ctx)).toBeUndefined();
    expect(writeFileTool.approvalScope?.({ path: '../outside.txt', content: 'x' }, ctx)).toBeNull();
    expect(await writeFileTool.preview?.({ path: 'dir', content: 'x' }, ctx)).toBeUndefined();
  });
});
