import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSandboxedPath } from '../../src/tools/sandbox.js';
import { makeTempDir } from './temp-sandbox.js';

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
