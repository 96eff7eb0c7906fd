/**
 * Tests wait on conditions, never on the clock (test/support/wait-until.ts): a fixed sleep is too
 * short on a loaded machine and too long on an idle one. The only fixed pause is `deliberatePause`,
 * which says why no condition could replace it. This reads every test file for a hand-made sleep.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
/** This file, which spells out the sleeps it looks for. */
const SELF = 'test/build/test-hygiene.test.ts';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'support' ? [] : testFiles(path);
    const file = relative(root, path);
    return /\.test\.tsx?$/.test(entry.name) && file !== SELF ? [file] : [];
  });
}

/** A promise that only a timer resolves (`new Promise((r) => setTimeout(r, 100))`), or a local sleep helper. */
const SLEEP = /new Promise(?:<void>)?\(\s*\(?(\w+)\)?\s*=>\s*setTimeout\(\s*\1\s*,|\bconst sleep\b/;

describe('test hygiene', () => {
  it('no test sleeps a fixed time except through deliberatePause', () => {
    const files = testFiles(join(root, 'test'));
    expect(files.length).toBeGreaterThan(100);
    const sleeping = files.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (SLEEP.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(sleeping).toEqual([]);
  });

  it('recognises the sleeps it forbids', () => {
    for (const line of [
      'await new Promise((resolve) => setTimeout(resolve, 100));',
      'await new Promise((r) => setTimeout(r, 20));',
      'await new Promise<void>((done) => setTimeout(done, 5));',
      'const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));',
    ])
      expect(SLEEP.test(line), line).toBe(true);
    expect(SLEEP.test("await waitUntil('the file', () => existsSync(file));")).toBe(false);
  });
});
