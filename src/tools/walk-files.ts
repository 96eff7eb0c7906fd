import type { Dirent } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SandboxScope } from '../files/sandbox.js';
import { DIRECTORY_OPEN, openInSandbox, readOpenDirectory } from '../files/sandbox-open.js';
import { fsPromises } from '../platform/node-builtin.js';
import { type IgnoreRule, isIgnored, parseGitignore } from './gitignore.js';

/** Directories never searched, ignored or not: they are large and never what the model is after. */
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

/**
 * Yields the regular files under `start` (or `start` itself if it is a file) in sorted order,
 * honouring .gitignore files (those of the enclosing git repository's directories above `start`,
 * its `.git/info/exclude`, and every .gitignore met on the way down). Symbolic links are not
 * followed: a link could lead out of the sandbox or into a cycle. Stops early when `signal` aborts.
 */
export async function* walkFiles(
  start: string,
  sandbox: SandboxScope,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const stat = await fsPromises().lstat(start);
  if (stat.isFile()) {
    yield start;
    return;
  }
  if (!stat.isDirectory()) return;
  yield* walkDirectory(start, await rulesAbove(start), sandbox, signal);
}

async function* walkDirectory(
  dir: string,
  inherited: IgnoreRule[],
  sandbox: SandboxScope,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  if (signal?.aborted) return;
  const rules = [...inherited, ...(await readIgnoreFile(join(dir, '.gitignore'), dir))];
  const entries = await listDirectory(dir, sandbox);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (signal?.aborted) return;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (ALWAYS_SKIPPED.has(entry.name) || isIgnored(rules, full, true)) continue;
      yield* walkDirectory(full, rules, sandbox, signal);
    } else if (entry.isFile() && !isIgnored(rules, full, false)) {
      yield full;
    }
  }
}

/** A directory's entries, listed through the sandbox's walk (never through a link swapped in); none if it cannot be. */
async function listDirectory(dir: string, sandbox: SandboxScope): Promise<Dirent[]> {
  try {
    const handle = await openInSandbox(dir, sandbox, DIRECTORY_OPEN);
    try {
      // With the sandbox: where /proc is missing, the listing is checked to be of the directory opened.
      return await readOpenDirectory(handle, dir, sandbox);
    } finally {
      await handle.close();
    }
  } catch {
    return [];
  }
}

/**
 * Rules that apply to `dir` from above it: the repository's `.git/info/exclude` and the .gitignore
 * files of the directories from the repository root down to `dir`'s parent. Outside a repository, none.
 */
async function rulesAbove(dir: string): Promise<IgnoreRule[]> {
  const above: string[] = [];
  let current = dir;
  while (!(await exists(join(current, '.git')))) {
    const parent = dirname(current);
    if (parent === current) return [];
    above.unshift(parent);
    current = parent;
  }
  const exclude = await readIgnoreFile(join(current, '.git', 'info', 'exclude'), current);
  const inherited = await Promise.all(above.map((a) => readIgnoreFile(join(a, '.gitignore'), a)));
  return [...exclude, ...inherited.flat()];
}

async function readIgnoreFile(file: string, base: string): Promise<IgnoreRule[]> {
  try {
    return parseGitignore(await fsPromises().readFile(file, 'utf8'), base);
  } catch {
    return [];
  }
}

async function exists(p: string): Promise<boolean> {
  return fsPromises()
    .access(p)
    .then(
      () => true,
      () => false,
    );
}
