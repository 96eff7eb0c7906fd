import type { Dirent } from 'node:fs';
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { errnoCode } from '../platform/errno.js';
import { fsPromises } from '../platform/node-builtin.js';
import { hardLinkRefusal, type SandboxAccess, type SandboxScope, sandboxRealRoots } from './sandbox.js';

/**
 * Opening what the sandbox checked, and nothing else. A path checked, then opened, is looked up
 * twice: a local process swapping a directory of it for a symbolic link in between (`rename`
 * with RENAME_EXCHANGE) redirected reads and writes outside. So a checked path is opened by a
 * walk from its sandbox root's descriptor, one name at a time, refusing symbolic links (Linux's
 * `/proc/self/fd/N/name` is `openat(N, name)`): whatever is swapped, what is opened lies under
 * the root. A checked path is a real path (resolveSandboxedPath), so a link in it is a swap.
 */

/** A path refused once open: a symbolic link where the check saw none, or a file with other hard links. */
export class SandboxRaceError extends Error {
  override readonly name = 'SandboxRaceError';
  readonly code = 'ESANDBOXRACE';
}

/** Where descriptors can be walked from (Linux); elsewhere the open falls back to the path with O_NOFOLLOW. */
const DESCRIPTORS = '/proc/self/fd';
let walkable: boolean | undefined;

/** What `openInSandbox` opens: a file (flags as for open), or a directory to list. */
export interface SandboxOpen {
  flags: number;
  /** Creates missing parent directories (each under the one before it, never through a link). */
  createParents?: boolean;
  mode?: number;
}

/**
 * Opens `path` (a real path inside one of the sandbox's roots) by walking from that root's
 * descriptor without following any link. Throws SandboxRaceError when a link (or a non-directory)
 * stands where the check saw a directory or a file; other errors as fs throws them.
 */
export async function openInSandbox(path: string, ctx: SandboxScope, how: SandboxOpen): Promise<FileHandle> {
  const flags = how.flags | constants.O_NOFOLLOW;
  walkable ??= existsSync(DESCRIPTORS);
  const root = rootOf(path, ctx);
  if (!root) {
    if (how.createParents) await fsPromises().mkdir(dirname(path), { recursive: true });
    return withRaceErrors(path, () => fsPromises().open(path, flags, how.mode));
  }
  if (!walkable) return openByWorkingDirectory(root, path, how);
  const names = relative(root, path).split(sep).filter(Boolean);
  let dir = await fsPromises().open(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (const name of names.slice(0, -1)) {
      const at = `${DESCRIPTORS}/${dir.fd}/${name}`;
      const openDir = () =>
        fsPromises().open(at, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      let next: FileHandle;
      try {
        next = await withRaceErrors(at, openDir);
      } catch (error) {
        if (!how.createParents || errnoCode(error) !== 'ENOENT') throw error;
        await fsPromises()
          .mkdir(at)
          .catch((made) => {
            if (errnoCode(made) !== 'EEXIST') throw made;
          });
        next = await withRaceErrors(at, openDir);
      }
      await dir.close();
      dir = next;
    }
    const last = names.at(-1);
    if (last === undefined) return await fsPromises().open(`${DESCRIPTORS}/${dir.fd}`, how.flags, how.mode);
    const at = `${DESCRIPTORS}/${dir.fd}/${last}`;
    return await withRaceErrors(at, () => fsPromises().open(at, flags, how.mode));
  } finally {
    await dir.close();
  }
}

/**
 * Opens a checked file (`requested` is how the model named it) by `openInSandbox`, then refuses
 * it if it has other hard links where the sandbox says so (hardLinkRefusal, judged on the file
 * opened, not on what a name pointed at before): throws SandboxRaceError with the reason.
 */
export async function openCheckedFile(
  requested: string,
  path: string,
  ctx: SandboxScope,
  access: SandboxAccess,
  how: SandboxOpen,
): Promise<FileHandle> {
  const handle = await openInSandbox(path, ctx, how);
  try {
    const stats = await handle.stat();
    const linked = stats.isFile() ? hardLinkRefusal(requested, path, ctx, access, stats.nlink) : undefined;
    if (linked) throw new SandboxRaceError(linked);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The entries of a directory opened with `openInSandbox` (a listing by descriptor, not by path). */
export async function readOpenDirectory(
  dir: FileHandle,
  path: string,
  ctx?: SandboxScope,
): Promise<Dirent[]> {
  walkable ??= existsSync(DESCRIPTORS);
  if (walkable) return fsPromises().readdir(`${DESCRIPTORS}/${dir.fd}`, { withFileTypes: true });
  const root = ctx && rootOf(path, ctx);
  if (!root) return fsPromises().readdir(path, { withFileTypes: true });
  // Listed from the directory the walk stands in, and only if it is the one opened.
  const opened = await dir.stat();
  return inWalkedDirectory(
    root,
    relative(root, path).split(sep).filter(Boolean),
    () => {
      const here = lstatSync('.');
      if (here.dev !== opened.dev || here.ino !== opened.ino) throw raceError();
      return readdirSync('.', { withFileTypes: true });
    },
    { whole: true },
  );
}

/** Uses the descriptor walk (true) or, as where /proc is missing, the working-directory walk (false); for tests. */
export function useDescriptorWalk(use: boolean | undefined): void {
  walkable = use;
}

function rootOf(path: string, ctx: SandboxScope): string | undefined {
  return sandboxRealRoots(ctx).find(
    (real) => real === path || path.startsWith(real.endsWith(sep) ? real : real + sep),
  );
}

function raceError(): SandboxRaceError {
  return new SandboxRaceError('it changed while it was being used (a symbolic link appeared in its path)');
}

/**
 * Without /proc (macOS, a Linux without it mounted) there is no `openat` to walk with: the walk
 * is made by the working directory, synchronously so that no other code runs meanwhile. From the
 * root, into each directory after lstat refused a link, each time asking the kernel where it
 * landed (getcwd): a link swapped in between is followed by chdir and shows as another path.
 * `use` runs in the last directory (the path's parent; with `whole`, the path itself, its names
 * passed), then the working directory is restored.
 */
function inWalkedDirectory<T>(
  root: string,
  names: string[],
  use: (names: string[]) => T,
  { whole = false, create = false }: { whole?: boolean; create?: boolean } = {},
): T {
  const before = process.cwd();
  try {
    process.chdir(root);
    let expected = root;
    for (const name of whole ? names : names.slice(0, -1)) {
      // ENOENT for a missing directory unless asked to make it, ENOTDIR for a file, as open says.
      const stats = lstatSync(name, { throwIfNoEntry: !create });
      if (stats?.isSymbolicLink()) throw raceError();
      if (!stats) mkdirSync(name);
      process.chdir(name);
      expected = join(expected, name);
      if (process.cwd() !== expected) throw raceError();
    }
    return use(names);
  } finally {
    try {
      process.chdir(before);
    } catch {
      // The old working directory is gone: stay where the walk ended, inside the sandbox.
    }
  }
}

/**
 * `openInSandbox` without /proc. What the working-directory walk finds (creating it first when
 * asked, never truncating) gives the identity the file opened by path must have: a path swapped
 * between the two opens another file, which is refused before anything is written (a truncation
 * waits for the check).
 */
async function openByWorkingDirectory(root: string, path: string, how: SandboxOpen): Promise<FileHandle> {
  const names = relative(root, path).split(sep).filter(Boolean);
  const creates = (how.flags & constants.O_CREAT) !== 0;
  const identity = inWalkedDirectory(
    root,
    names,
    (all) => {
      const last = all.at(-1) ?? '.';
      if (creates)
        closeSync(openSync(last, constants.O_CREAT | constants.O_WRONLY | constants.O_NOFOLLOW, how.mode));
      const stats = lstatSync(last);
      if (stats.isSymbolicLink()) throw raceError();
      return { dev: stats.dev, ino: stats.ino };
    },
    { create: how.createParents },
  );
  const flags =
    (how.flags & ~(constants.O_CREAT | constants.O_EXCL | constants.O_TRUNC)) | constants.O_NOFOLLOW;
  const handle = await withRaceErrors(path, () => fsPromises().open(path, flags, how.mode));
  try {
    const opened = await handle.stat();
    if (opened.dev !== identity.dev || opened.ino !== identity.ino) throw raceError();
    if (how.flags & constants.O_TRUNC) await handle.truncate(0);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A directory to list: read-only, a directory, never blocking. */
export const DIRECTORY_OPEN: SandboxOpen = {
  flags: constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK,
};

/**
 * A link met under O_NOFOLLOW means the path was swapped since its check: ELOOP for a file,
 * ENOTDIR for a directory (as for a file where a directory is, which stays ENOTDIR).
 */
async function withRaceErrors(at: string, opening: () => Promise<FileHandle>): Promise<FileHandle> {
  try {
    return await opening();
  } catch (error) {
    const code = errnoCode(error);
    const link =
      code === 'ELOOP' ||
      (code === 'ENOTDIR' &&
        (await fsPromises()
          .lstat(at)
          .then(
            (s) => s.isSymbolicLink(),
            () => false,
          )));
    if (link) throw raceError();
    throw error;
  }
}
