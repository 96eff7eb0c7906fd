/**
 * The sandbox raced: a local process swaps `race/` between a directory and a symbolic link to a
 * folder outside, as fast as it can (renameat2 with RENAME_EXCHANGE, through python's ctypes),
 * while read_file, list_directory, search_files and write_file use `race/…` again and again.
 * Checked then opened by path, 12 of 80 reads returned the outside file and 11 of 190 writes
 * overwrote it; opened by the walk from the root's descriptor, none may.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useDescriptorWalk } from '../../src/files/sandbox-open.js';
import { listDirectoryTool } from '../../src/tools/builtin/list-directory.js';
import { readFileTool } from '../../src/tools/builtin/read-file.js';
import { searchFilesTool } from '../../src/tools/builtin/search-files.js';
import { writeFileTool } from '../../src/tools/builtin/write-file.js';
import { walkFiles } from '../../src/tools/walk-files.js';
import { canSwap, startSwapper } from '../support/sandbox-swapper.js';
import { makeContext, makeTempDir } from '../tools/temp-sandbox.js';

const TRIES = 200;
/** Its window is the narrowest (a few system calls): checked then opened by path, 3 of 1,000 reads escaped. */
const READ_TRIES = 1000;
/**
 * Whether to try again: `tries` done, or more until the race has let one use through (a loaded
 * machine can run the swapper so often that the first tries all meet the link), at most ten times as many.
 */
const goOn = (i: number, tries: number, succeeded: number) =>
  i < tries || (succeeded === 0 && i < tries * 10);

const swappers: ChildProcess[] = [];
afterEach(() => {
  for (const swapper of swappers.splice(0)) swapper.kill('SIGKILL');
});

/** A working directory whose `race/` a process keeps swapping with a link to `outside/`. */
async function racedSandbox() {
  const root = makeTempDir('ochat-race-');
  const cwd = join(root, 'work');
  const outside = join(root, 'outside');
  mkdirSync(join(cwd, 'race'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(cwd, 'race', 'f.txt'), 'inside: harmless\n');
  writeFileSync(join(outside, 'f.txt'), 'SECRET-OUTSIDE\n');
  writeFileSync(join(outside, 'SECRET-ENTRY'), 'SECRET-OUTSIDE too\n');
  symlinkSync(outside, join(cwd, 'swap'));
  swappers.push(await startSwapper(cwd));
  return { cwd, outside, ctx: makeContext(cwd) };
}

describe.skipIf(!canSwap).each([
  { walk: 'the walk from the root descriptor (/proc)', descriptors: true },
  { walk: 'the working-directory walk (where /proc is missing)', descriptors: false },
])('the sandbox raced by a process swapping a directory and a link, opened by $walk', ({ descriptors }) => {
  beforeAll(() => useDescriptorWalk(descriptors));
  afterAll(() => useDescriptorWalk(undefined));

  it(`read_file never returns the outside file in ${READ_TRIES} tries`, async () => {
    const { ctx } = await racedSandbox();
    let escapes = 0;
    let read = 0;
    for (let i = 0; goOn(i, READ_TRIES, read); i++) {
      const outcome = await readFileTool.run({ path: 'race/f.txt' }, ctx);
      if (outcome.output.includes('SECRET')) escapes++;
      if (outcome.ok) read++;
    }
    expect(escapes).toBe(0);
    // The race is real: some tries read the inside file, others were refused or missed it.
    expect(read).toBeGreaterThan(0);
  });

  it(`list_directory never lists the outside folder in ${TRIES} tries`, async () => {
    const { ctx } = await racedSandbox();
    let escapes = 0;
    for (let i = 0; i < TRIES; i++) {
      const outcome = await listDirectoryTool.run({ path: 'race' }, ctx);
      if (outcome.output.includes('SECRET')) escapes++;
    }
    expect(escapes).toBe(0);
  });

  it(`search_files never searches the outside folder in ${TRIES} tries`, async () => {
    const { ctx } = await racedSandbox();
    let escapes = 0;
    for (let i = 0; i < TRIES; i++) {
      const outcome = await searchFilesTool.run({ pattern: 'SECRET|harmless', path: 'race' }, ctx);
      if (outcome.output.includes('SECRET')) escapes++;
    }
    expect(escapes).toBe(0);
  });

  // The walk search_files makes lists the directories checked, too. Listed by path where /proc is
  // missing, race/ was listed as the outside folder in 29 of 200 walks (and 15 of 200 searches told
  // of the outside folder's hard-linked files).
  it(`search_files' walk never lists the outside folder in ${TRIES} tries`, async () => {
    const { cwd, ctx } = await racedSandbox();
    let escapes = 0;
    let found = 0;
    for (let i = 0; goOn(i, TRIES, found); i++) {
      const files: string[] = [];
      for await (const file of walkFiles(cwd, ctx)) files.push(file);
      if (files.some((file) => file.includes('SECRET'))) escapes++;
      if (files.includes(join(cwd, 'race', 'f.txt'))) found++;
    }
    expect(escapes).toBe(0);
    // The race is real: some walks listed race/ as the directory it was.
    expect(found).toBeGreaterThan(0);
  });

  it(`write_file never writes outside in ${TRIES} tries`, async () => {
    const { ctx, outside } = await racedSandbox();
    let written = 0;
    for (let i = 0; goOn(i, TRIES, written); i++) {
      const outcome = await writeFileTool.run({ path: 'race/f.txt', content: `PWNED ${i}\n` }, ctx);
      if (outcome.ok) written++;
      // A new file under the swapped directory must not appear outside either.
      await writeFileTool.run({ path: `race/new-${i}.txt`, content: 'PWNED\n' }, ctx);
    }
    expect(readFileSync(join(outside, 'f.txt'), 'utf8')).toBe('SECRET-OUTSIDE\n');
    expect(readdirSync(outside).sort()).toEqual(['SECRET-ENTRY', 'f.txt']);
    expect(written).toBeGreaterThan(0);
  });
});
