import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { ToolContext } from '../../src/tools/tool.js';

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh real directory (symlinks resolved), removed after the test. */
export function makeTempDir(prefix = 'ochat-tools-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Writes files given as `{relativePath: content}` under `root`, creating parent directories. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [relative, content] of Object.entries(files)) {
    const full = path.join(root, relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
}

/** A tool context rooted at `cwd` with a fixed clock. */
export function makeContext(cwd: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    cwd,
    allowedPaths: [],
    commandTimeoutMs: 10_000,
    now: () => new Date('2026-12-02T14:03:05Z'),
    ...overrides,
  };
}

/** A named pipe no one writes to, in `dir`: opening it blocks, reading it never ends. */
export function makeFifo(dir: string, name = 'pipe'): string {
  const fifo = path.join(dir, name);
  execFileSync('mkfifo', [fifo]);
  return fifo;
}
