import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_MATCHES, searchFilesTool } from '../../../src/tools/builtin/search-files.js';
import { deliberatePause } from '../../support/wait-until.js';
import { makeContext, makeTempDir, writeTree } from '../temp-sandbox.js';

describe('search_files', () => {
  it('finds matches with file and line and summarizes counts', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, {
      'src/a.ts': 'const x = 1; // TODO one\nok\n// TODO two\n',
      'src/b.ts': 'nothing here\n',
      'src/lib/c.ts': 'TODO three\n',
    });
    const args = { pattern: 'TODO', path: 'src' };
    const outcome = await searchFilesTool.run(args, makeContext(cwd));
    expect(outcome.ok).toBe(true);
    expect(outcome.output.split('\n')).toEqual([
      'src/a.ts:1: const x = 1; // TODO one',
      'src/a.ts:3: // TODO two',
      'src/lib/c.ts:1: TODO three',
    ]);
    expect(searchFilesTool.summaryLine(args, outcome)).toBe('searched "TODO" in src/ (3 matches in 2 files)');
  });

  it('respects .gitignore (root and nested, negation, directory patterns) without git', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, {
      '.gitignore': 'dist/\n*.log\n!keep.log\n/root-only.txt\n',
      'dist/out.js': 'needle',
      'app.log': 'needle',
      'keep.log': 'needle',
      'root-only.txt': 'needle',
      'sub/root-only.txt': 'needle',
      'sub/.gitignore': 'secret*\n',
      'sub/secret-notes.md': 'needle',
      'sub/plain.md': 'needle',
      'node_modules/pkg/index.js': 'needle',
    });
    const outcome = await searchFilesTool.run({ pattern: 'needle' }, makeContext(cwd));
    const files = outcome.output.split('\n').map((line) => line.split(':')[0]);
    expect(files).toEqual(['keep.log', 'sub/plain.md', 'sub/root-only.txt']);
  });

  it('applies the .gitignore of directories above the searched path inside a git repository', async () => {
    const cwd = makeTempDir();
    fs.mkdirSync(path.join(cwd, '.git'));
    writeTree(cwd, { '.gitignore': 'generated.ts\n', 'src/generated.ts': 'needle', 'src/main.ts': 'needle' });
    const outcome = await searchFilesTool.run({ pattern: 'needle', path: 'src' }, makeContext(cwd));
    expect(outcome.output).toBe('src/main.ts:1: needle');
  });

  it('skips binary files and filters by glob', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, {
      'blob.bin': new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1]),
      'a.ts': 'needle',
      'a.md': 'needle',
      'deep/b.ts': 'needle',
    });
    const all = await searchFilesTool.run({ pattern: 'needle' }, makeContext(cwd));
    expect(all.output).not.toContain('blob.bin');
    const ts = await searchFilesTool.run({ pattern: 'needle', glob: '*.ts' }, makeContext(cwd));
    expect(ts.output.split('\n')).toEqual(['a.ts:1: needle', 'deep/b.ts:1: needle']);
    const deep = await searchFilesTool.run({ pattern: 'needle', glob: 'deep/**' }, makeContext(cwd));
    expect(deep.output).toBe('deep/b.ts:1: needle');
  });

  it('caps the number of matches and says so', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'many.txt': 'hit\n'.repeat(MAX_SEARCH_MATCHES + 50) });
    const args = { pattern: 'hit' };
    const outcome = await searchFilesTool.run(args, makeContext(cwd));
    expect(outcome.details).toMatchObject({ matches: MAX_SEARCH_MATCHES, capped: true });
    expect(outcome.output).toContain(`stopped at ${MAX_SEARCH_MATCHES} matches`);
    expect(searchFilesTool.summaryLine(args, outcome)).toBe(
      `searched "hit" in ./ (first ${MAX_SEARCH_MATCHES} matches in 1 file)`,
    );
  });

  it('supports (?i) for case-insensitive search and reports no matches', async () => {
    const cwd = makeTempDir();
    writeTree(cwd, { 'a.txt': 'Hello' });
    expect((await searchFilesTool.run({ pattern: '(?i)hello' }, makeContext(cwd))).output).toBe(
      'a.txt:1: Hello',
    );
    const none = await searchFilesTool.run({ pattern: 'absent' }, makeContext(cwd));
    expect(none).toMatchObject({ ok: true, output: 'No matches (searched 1 file).' });
    expect(searchFilesTool.summaryLine({ pattern: 'absent' }, none)).toBe(
      'searched "absent" in ./ (0 matches in 0 files)',
    );
  });

  it('reports an invalid regular expression', async () => {
    const outcome = await searchFilesTool.run({ pattern: '(' }, makeContext(makeTempDir()));
    expect(outcome.ok).toBe(false);
    expect(searchFilesTool.summaryLine({ pattern: '(' }, outcome)).toBe(
      '❌ search "(" in ./ (invalid pattern)',
    );
  });

  it('refuses to search outside the sandbox and does not follow symlinks out of it', async () => {
    const cwd = makeTempDir();
    const outside = makeTempDir('ochat-outside-');
    writeTree(outside, { 'secret.txt': 'needle' });
    writeTree(cwd, { 'mine.txt': 'needle' });
    fs.symlinkSync(outside, path.join(cwd, 'linked'));
    expect((await searchFilesTool.run({ pattern: 'needle', path: outside }, makeContext(cwd))).ok).toBe(
      false,
    );
    const outcome = await searchFilesTool.run({ pattern: 'needle' }, makeContext(cwd));
    expect(outcome.output).toBe('mine.txt:1: needle');
  });

  describe('a catastrophic pattern ((a+)+$ over a long line)', () => {
    const hostile = { pattern: '(a+)+$' };
    const tree = { 'long.txt': `${'a'.repeat(50_000)}!\n` };

    it('is stopped at the time limit and the model is told the pattern is too slow', async () => {
      const cwd = makeTempDir();
      writeTree(cwd, tree);
      const outcome = await searchFilesTool.run(hostile, makeContext(cwd, { commandTimeoutMs: 300 }));
      expect(outcome).toMatchObject({ ok: false, details: { error: 'pattern too slow' } });
      expect(outcome.output).toMatch(/^search stopped: pattern too slow \(still matching after 0\.3 s/);
      expect(searchFilesTool.summaryLine(hostile, outcome)).toBe(
        '❌ search "(a+)+$" in ./ (pattern too slow)',
      );
    });

    it('is stopped by the abort signal (Ctrl+C), and the event loop stays free meanwhile', async () => {
      const cwd = makeTempDir();
      writeTree(cwd, tree);
      const controller = new AbortController();
      const search = searchFilesTool.run(hostile, makeContext(cwd, { signal: controller.signal }));
      // A timer on this thread fires while the pattern runs: matching is elsewhere.
      await deliberatePause(100, 'a timer on this thread firing while the pattern runs is the point');
      controller.abort();
      const outcome = await search;
      expect(outcome).toMatchObject({ ok: false, output: 'The search was cancelled.' });
    });
  });
});
