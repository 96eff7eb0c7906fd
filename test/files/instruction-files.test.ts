import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectDirectories, readInstructionFiles } from '../../src/files/instruction-files.js';
import { makeTempDir, writeTree } from '../tools/temp-sandbox.js';

/** A config directory and a repository `repo/` (with `.git`) holding `repo/pkg/app/`. */
function layout() {
  const root = makeTempDir('ochat-agents-');
  const config = path.join(root, 'config');
  const repo = path.join(root, 'repo');
  const app = path.join(repo, 'pkg', 'app');
  mkdirSync(config);
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  mkdirSync(app, { recursive: true });
  return { root, config, repo, app };
}

describe('projectDirectories', () => {
  it('runs from the repository root down to the working directory', () => {
    const { repo, app } = layout();
    expect(projectDirectories(app)).toEqual([repo, path.join(repo, 'pkg'), app]);
  });

  it('is the working directory alone outside a repository', () => {
    const dir = makeTempDir('ochat-norepo-');
    expect(projectDirectories(dir)).toEqual([dir]);
  });

  it('finds a repository whose .git is a file (a worktree)', () => {
    const root = makeTempDir('ochat-worktree-');
    writeTree(root, { '.git': 'gitdir: elsewhere\n', 'a/.keep': '' });
    expect(projectDirectories(path.join(root, 'a'))).toEqual([root, path.join(root, 'a')]);
  });
});

describe('readInstructionFiles', () => {
  it("reads the user's own first, then the repository's from the root down; not above the root", async () => {
    const { root, config, repo, app } = layout();
    writeTree(root, { 'AGENTS.md': 'above' });
    writeTree(config, { 'AGENTS.md': 'user' });
    writeTree(repo, { 'AGENTS.md': 'root', 'pkg/AGENTS.md': '', 'pkg/app/AGENTS.md': 'app' });
    const { files, problems } = await readInstructionFiles({
      cwd: app,
      names: ['AGENTS.md'],
      configDir: config,
    });
    expect(files.map((f) => [path.relative(root, f.path), f.content])).toEqual([
      ['config/AGENTS.md', 'user'],
      ['repo/AGENTS.md', 'root'],
      // pkg/AGENTS.md is empty: it adds nothing.
      ['repo/pkg/app/AGENTS.md', 'app'],
    ]);
    expect(problems).toEqual([]);
  });

  it('reads every name in each directory, an absolute path as it is, a file reached twice once', async () => {
    const { root, config, repo } = layout();
    writeTree(repo, { 'AGENTS.md': 'agents', 'CLAUDE.md': 'claude' });
    writeTree(root, { 'shared.md': 'shared' });
    symlinkSync(path.join(repo, 'AGENTS.md'), path.join(config, 'AGENTS.md'));
    const { files } = await readInstructionFiles({
      cwd: repo,
      names: ['AGENTS.md', 'CLAUDE.md', path.join(root, 'shared.md')],
      configDir: config,
    });
    expect(files.map((f) => f.content)).toEqual(['agents', 'shared', 'claude']);
  });

  it('says why a file is not read: too large, not text, a directory; the others are still read', async () => {
    const { config, repo, app } = layout();
    writeFileSync(path.join(config, 'AGENTS.md'), Buffer.alloc(1_000_001, 'a'));
    writeTree(repo, { 'AGENTS.md': Buffer.from([1, 0, 2]) });
    mkdirSync(path.join(repo, 'pkg', 'AGENTS.md'));
    writeTree(app, { 'AGENTS.md': 'app' });
    const { files, problems } = await readInstructionFiles({
      cwd: app,
      names: ['AGENTS.md'],
      configDir: config,
    });
    expect(files.map((f) => f.content)).toEqual(['app']);
    expect(problems).toEqual([
      `${path.join(config, 'AGENTS.md')}: not read: 1,000,001 bytes, over the 1,000,000 an instructions file may have`,
      `${path.join(repo, 'AGENTS.md')}: not read: it is not text`,
      `${path.join(repo, 'pkg', 'AGENTS.md')}: not read: it is a directory`,
    ]);
  });
});
