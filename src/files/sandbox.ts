import { lstatSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errnoCode, fileErrorReason } from '../platform/errno.js';

/** Where files may be used: the working directory and the configured `allowed_paths`. */
export interface SandboxScope {
  cwd: string;
  allowedPaths: string[];
}

/** A requested path resolved inside the sandbox (real path), or why it was refused. */
export type SandboxedPath = { ok: true; path: string } | { ok: false; error: string };

/** One directory file tools may use: as configured, and with symlinks resolved. */
interface SandboxRoot {
  lexical: string;
  real: string;
}

/** What a path is resolved for: a file with other hard links may be read in fewer places than written. */
export type SandboxAccess = 'read' | 'write';

/**
 * Resolves a path a model asked for and confines it to `cwd` and `allowedPaths`. Refuses `..`
 * escapes, absolute paths outside, symlinks whose real path escapes (for a file yet to be
 * written, the real path of its nearest existing parent), and files with other hard links (see
 * {@link hardLinkRefusal}), with an error the model can act on.
 */
export function resolveSandboxedPath(
  requested: string,
  ctx: SandboxScope,
  access: SandboxAccess = 'read',
): SandboxedPath {
  if (typeof requested !== 'string' || requested.trim() === '') {
    return { ok: false, error: 'The path is empty; give a path relative to the working directory.' };
  }
  if (requested.includes('\0')) return { ok: false, error: 'The path contains a NUL character.' };
  const roots = sandboxRoots(ctx);
  const target = resolve(ctx.cwd, expandHome(requested));
  if (!roots.some((root) => isWithin(root.lexical, target))) {
    return { ok: false, error: `Access denied: "${requested}" is outside ${describeRoots(roots)}.` };
  }
  const real = realPathOf(target);
  if (!real.ok) return { ok: false, error: `Cannot use "${requested}": ${real.error}` };
  if (!roots.some((root) => isWithin(root.real, real.path))) {
    return {
      ok: false,
      error: `Access denied: "${requested}" leads through a symbolic link to ${real.path}, which is outside ${describeRoots(roots)}.`,
    };
  }
  const linked = hardLinkRefusal(requested, real.path, ctx, access);
  return linked ? { ok: false, error: linked } : real;
}

/**
 * Why a regular file with more than one hard link must not be used, else undefined. Its other
 * names may be anywhere on the same file system (a link in the working directory to ~/.bashrc),
 * and the link count cannot tell where: such a file is never written (the write would change
 * every name of it), and read only inside a directory the user listed in `allowed_paths`.
 */
export function hardLinkRefusal(
  requested: string,
  real: string,
  ctx: SandboxScope,
  access: SandboxAccess,
  /** The file's link count when it is open already (else it is looked up by `real`). */
  openLinks?: number,
): string | undefined {
  let links: number;
  if (openLinks !== undefined) links = openLinks;
  else
    try {
      const stats = statSync(real);
      if (!stats.isFile()) return undefined;
      links = stats.nlink;
    } catch {
      return undefined;
    }
  if (links <= 1) return undefined;
  const why = `"${requested}" has ${links} hard links: the same file may also be outside the working directory`;
  if (access === 'write')
    return `Refused: ${why}, and writing to it would change it there too. It was not written; write a new file instead.`;
  const allowed = ctx.allowedPaths.map((entry) => realPathOf(resolve(ctx.cwd, expandHome(entry))));
  if (allowed.some((root) => root.ok && isWithin(root.path, real))) return undefined;
  return `Access denied: ${why}. Such a file is read only inside a directory listed in tools.allowed_paths.`;
}

/** The real paths of the sandbox's directories (what a checked path lies under). */
export function sandboxRealRoots(ctx: SandboxScope): string[] {
  return sandboxRoots(ctx).map((root) => root.real);
}

/** The directories of the sandbox: `cwd` first, then the allowed paths. */
function sandboxRoots(ctx: SandboxScope): SandboxRoot[] {
  return [ctx.cwd, ...ctx.allowedPaths].map((entry) => {
    const lexical = resolve(ctx.cwd, expandHome(entry));
    const real = realPathOf(lexical);
    return { lexical, real: real.ok ? real.path : lexical };
  });
}

function describeRoots(roots: SandboxRoot[]): string {
  const list = roots.map((root) => root.lexical).join(', ');
  return roots.length === 1
    ? `the working directory (${list}); use a path inside it`
    : `the directories this tool may use (${list}); use a path inside one of them`;
}

function expandHome(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return join(homedir(), p.slice(2));
  return p;
}

function isWithin(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The real path of `target`; for a path that does not exist yet, the real path of its nearest
 * existing ancestor joined with the rest. A dangling symlink is refused: writing through it would
 * create its target, wherever that is.
 */
function realPathOf(target: string): SandboxedPath {
  const rest: string[] = [];
  let current = target;
  for (;;) {
    try {
      return { ok: true, path: join(realpathSync.native(current), ...rest) };
    } catch (error) {
      const code = errnoCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        return { ok: false, error: `${current}: ${fileErrorReason(error)}` };
      }
      if (isSymlink(current)) {
        return { ok: false, error: `${current} is a symbolic link whose target does not exist.` };
      }
      const parent = dirname(current);
      if (parent === current) return { ok: true, path: join(current, ...rest) };
      rest.unshift(basename(current));
      current = parent;
    }
  }
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
