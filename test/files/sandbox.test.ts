import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSandboxedPath } from '../../src/files/sandbox.js';
import { listDirectoryTool } from '../../src/tools/builtin/list-directory.js';
import { readFileTool } from '../../src/tools/builtin/read-file.js';
import { searchFilesTool } from '../../src/tools/builtin/search-files.js';
import { writeFileTool } from '../../src/tools/builtin/write-file.js';
import { makeContext, makeTempDir, writeTree } from '../tools/temp-sandbox.js';

describe('resolveSandboxedPath', () => {
  it('resolves relative paths inside cwd, existing or not', () => {
    const cwd = makeTempDir();
    fs.mkdirSync(path.join(cwd, 'src'));
    expect(resolveSandboxedPath('src', { cwd, allowedPaths: [] })).toEqual({
      ok: true,
      path: path.join(cwd, 'src'),
    });
    expect(resolveSandboxedPath('new/dir/file.txt', { cwd, allowedPaths: [] })).toEqual({
      ok: true,
      path: path.join(cwd, 'new/dir/file.txt'),
    });
    expect(resolveSandboxedPath('.', { cwd, allowedPaths: [] })).toEqual({ ok: true, path: cwd });
    expect(resolveSandboxedPath(path.join(cwd, 'src'), { cwd, allowedPaths: [] }).ok).toBe(true);
  });

  it('refuses a file with other hard links: never for writing, for reading only outside allowed_paths', () => {
    const cwd = makeTempDir();
    const elsewhere = makeTempDir();
    fs.writeFileSync(path.join(elsewhere, 'secret'), 's');
    fs.linkSync(path.join(elsewhere, 'secret'), path.join(cwd, 'link'));
    fs.writeFileSync(path.join(cwd, 'single'), 'x');
    const inCwd = { cwd, allowedPaths: [] };
    expect(resolveSandboxedPath('single', inCwd, 'write').ok).toBe(true);
    const read = resolveSandboxedPath('link', inCwd, 'read');
    expect(read.ok || read.error).toMatch(/"link" has 2 hard links.*tools\.allowed_paths/);
    const allowed = { cwd, allowedPaths: [cwd] };
    expect(resolveSandboxedPath('link', allowed, 'read')).toEqual({ ok: true, path: path.join(cwd, 'link') });
    const write = resolveSandboxedPath('link', allowed, 'write');
    expect(write.ok || write.error).toMatch(/^Refused: "link" has 2 hard links/);
  });

  it('refuses .. escapes with an actionable error', () => {
    const cwd = makeTempDir();
    const result = resolveSandboxedPath('../outside.txt', { cwd, allowedPaths: [] });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain('Access denied');
      expect(result.error).toContain(cwd);
    }
    expect(resolveSandboxedPath('src/../../x', { cwd, allowedPaths: [] }).ok).toBe(false);
  });

  it('refuses absolute paths outside the sandbox', () => {
    const cwd = makeTempDir();
    expect(resolveSandboxedPath('/etc/passwd', { cwd, allowedPaths: [] }).ok).toBe(false);
  });

  it('honours allowed_paths (absolute and relative to cwd)', () => {
    const cwd = makeTempDir();
    const other = makeTempDir('ochat-allowed-');
    fs.writeFileSync(path.join(other, 'notes.md'), 'hi');
    const target = path.join(other, 'notes.md');
    expect(resolveSandboxedPath(target, { cwd, allowedPaths: [] }).ok).toBe(false);
    expect(resolveSandboxedPath(target, { cwd, allowedPaths: [other] })).toEqual({ ok: true, path: target });
    const relative = path.relative(cwd, other);
    expect(resolveSandboxedPath(target, { cwd, allowedPaths: [relative] }).ok).toBe(true);
  });

  it('refuses a symlink whose real path escapes the sandbox', () => {
    const cwd = makeTempDir();
    const outside = makeTempDir('ochat-outside-');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(cwd, 'link.txt'));
    fs.symlinkSync(outside, path.join(cwd, 'linkdir'));
    const viaFile = resolveSandboxedPath('link.txt', { cwd, allowedPaths: [] });
    expect(viaFile.ok).toBe(false);
    if (!viaFile.ok) expect(viaFile.error).toContain('symbolic link');
    // A file to be written through a linked directory: its nearest existing parent escapes.
    expect(resolveSandboxedPath('linkdir/new.txt', { cwd, allowedPaths: [] }).ok).toBe(false);
  });

  it('allows a symlink that stays inside the sandbox', () => {
    const cwd = makeTempDir();
    fs.writeFileSync(path.join(cwd, 'real.txt'), 'x');
    fs.symlinkSync(path.join(cwd, 'real.txt'), path.join(cwd, 'alias.txt'));
    expect(resolveSandboxedPath('alias.txt', { cwd, allowedPaths: [] })).toEqual({
      ok: true,
      path: path.join(cwd, 'real.txt'),
    });
  });

  it('refuses a dangling symlink (writing through it would create its target anywhere)', () => {
    const cwd = makeTempDir();
    fs.symlinkSync('/nonexistent-ochat-target/file', path.join(cwd, 'dangling'));
    const result = resolveSandboxedPath('dangling', { cwd, allowedPaths: [] });
    expect(result.ok).toBe(false);
  });

  it('refuses empty paths', () => {
    expect(resolveSandboxedPath('  ', { cwd: makeTempDir(), allowedPaths: [] }).ok).toBe(false);
  });
});

// A working directory reached through a symbolic link (as /tmp is on macOS): the sandbox's roots
// are resolved through it, so the file tools keep working there and stay confined.
/** A real project directory, and the symlinked path the app was started in. */
function linkedCwd(): { real: string; cwd: string } {
  const real = makeTempDir('ochat-real-');
  const links = makeTempDir('ochat-links-');
  const cwd = path.join(links, 'project');
  fs.symlinkSync(real, cwd);
  writeTree(real, { 'notes.md': 'needle in notes\n', 'src/a.ts': 'const needle = 1;\n' });
  return { real, cwd };
}

describe('file tools in a working directory reached through a symlink', () => {
  it('resolve paths inside it to their real paths', () => {
    const { real, cwd } = linkedCwd();
    expect(resolveSandboxedPath('notes.md', { cwd, allowedPaths: [] })).toEqual({
      ok: true,
      path: path.join(real, 'notes.md'),
    });
    expect(resolveSandboxedPath('new/file.txt', { cwd, allowedPaths: [] })).toEqual({
      ok: true,
      path: path.join(real, 'new/file.txt'),
    });
  });

  it('read, write, list and search as in any other directory', async () => {
    const { real, cwd } = linkedCwd();
    const ctx = makeContext(cwd);
    expect(await readFileTool.run({ path: 'notes.md' }, ctx)).toMatchObject({ ok: true });
    expect((await readFileTool.run({ path: 'notes.md' }, ctx)).output).toContain('needle in notes');
    expect(await writeFileTool.run({ path: 'out/x.txt', content: 'hi' }, ctx)).toMatchObject({ ok: true });
    expect(fs.readFileSync(path.join(real, 'out/x.txt'), 'utf8')).toBe('hi');
    expect(await listDirectoryTool.run({}, ctx)).toMatchObject({ ok: true, output: 'notes.md\nout/\nsrc/' });
    const search = await searchFilesTool.run({ pattern: 'needle' }, ctx);
    expect(search.ok).toBe(true);
    expect(search.output).toContain('notes.md:1: needle in notes');
    expect(search.output).toContain('src/a.ts:1: const needle = 1;');
  });

  it('stay confined: .. and a symlink out are refused', async () => {
    const { real, cwd } = linkedCwd();
    const outside = makeTempDir('ochat-outside-');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(real, 'escape.txt'));
    const ctx = makeContext(cwd);
    expect(resolveSandboxedPath('../outside.txt', ctx).ok).toBe(false);
    expect(resolveSandboxedPath(path.join(outside, 'secret.txt'), ctx).ok).toBe(false);
    const read = await readFileTool.run({ path: 'escape.txt' }, ctx);
    expect(read.ok).toBe(false);
    expect(read.output).toContain('symbolic link');
    expect(read.output).not.toContain('secret\n');
  });

  it('an allowed path reached through a symlink is usable too', () => {
    const { cwd } = linkedCwd();
    const otherReal = makeTempDir('ochat-other-');
    fs.writeFileSync(path.join(otherReal, 'shared.md'), 'x');
    const otherLink = path.join(makeTempDir('ochat-links-'), 'shared');
    fs.symlinkSync(otherReal, otherLink);
    expect(
      resolveSandboxedPath(path.join(otherLink, 'shared.md'), { cwd, allowedPaths: [otherLink] }),
    ).toEqual({
      ok: true,
      path: path.join(otherReal, 'shared.md'),
    });
  });
});
