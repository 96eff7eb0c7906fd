import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { errnoCode, fileErrorReason } from '../platform/errno.js';
import { looksBinary } from './binary-content.js';
import { readRegularFile } from './regular-file.js';

/** A file of instructions over this size is not read (a mistake, not instructions), and the user is told. */
export const MAX_INSTRUCTION_FILE_BYTES = 1_000_000;

/** One file of instructions found and read. */
export interface InstructionFile {
  /** Its absolute path. */
  path: string;
  content: string;
}

/** The files found, in the order they go to the model, and the ones that could not be read. */
export interface InstructionFiles {
  files: InstructionFile[];
  /** One line per file that exists but was not used, saying why. */
  problems: string[];
}

/** Where to look. */
export interface InstructionSearch {
  /** The working directory: the innermost directory searched. */
  cwd: string;
  /** `instructions_files`: names looked for in each directory; an absolute path is read as it is. */
  names: readonly string[];
  /** ochat's config directory: the user's own files, for every project, come first. */
  configDir: string;
}

/**
 * The directories searched, most general first: from the repository root (the nearest directory
 * holding `.git`) down to `cwd`; `cwd` alone outside a repository (its parents may be anyone's).
 */
export function projectDirectories(cwd: string): string[] {
  const dirs: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (existsSync(join(dir, '.git'))) return dirs;
    if (dirname(dir) === dir) return [resolve(cwd)];
  }
}

/**
 * Reads the instruction files (AGENTS.md and the like): each name in the config directory, then
 * in every project directory from the root down, the nearest last (so it has the last word, as
 * Codex and opencode order them). A file reached twice (a symlink, `cwd` being the config
 * directory) is read once; an empty file adds nothing.
 */
export async function readInstructionFiles(search: InstructionSearch): Promise<InstructionFiles> {
  const absolute = search.names.filter((name) => isAbsolute(name));
  const relative = search.names.filter((name) => !isAbsolute(name));
  const candidates = [
    ...relative.map((name) => join(search.configDir, name)),
    ...absolute,
    ...projectDirectories(search.cwd).flatMap((dir) => relative.map((name) => join(dir, name))),
  ];
  const seen = new Set<string>();
  const result: InstructionFiles = { files: [], problems: [] };
  for (const path of candidates) {
    const real = realPath(path);
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    const read = await readOne(path);
    if (typeof read === 'string') result.problems.push(`${path}: ${read}`);
    else if (read.content.trim()) result.files.push(read);
  }
  return result;
}

/** The file's real path; undefined when there is none (the usual case: no such file). */
function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The file read, or why it was not (in words). */
async function readOne(path: string): Promise<InstructionFile | string> {
  try {
    const read = await readRegularFile(path, MAX_INSTRUCTION_FILE_BYTES);
    if (read.kind === 'not-regular') return `not read: it is ${read.what}`;
    if (read.kind === 'too-large')
      return `not read: ${read.size.toLocaleString('en-US')} bytes, over the ${MAX_INSTRUCTION_FILE_BYTES.toLocaleString('en-US')} an instructions file may have`;
    if (looksBinary(read.content)) return 'not read: it is not text';
    return { path, content: read.content.toString('utf8') };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return 'not read: it was removed while being read';
    return `not read: ${fileErrorReason(error)}`;
  }
}
