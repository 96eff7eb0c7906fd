import { type Dir, opendirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletionEntry } from '../commands/command.js';
import { resolveSandboxedPath, type SandboxScope } from '../files/sandbox.js';
import { formatBytes } from '../text/format-bytes.js';
import { suggest } from '../text/suggest.js';

/** Most entries of one directory read for a completion list (a huge directory stays quick). */
const MAX_ENTRIES_READ = 2000;
/** Most entries offered (each is stat'ed for its size). */
const MAX_OFFERED = 200;

/**
 * Paths for Tab after `@`: the entries of the directory `partial` names so far whose names start
 * with its last segment — directories with a trailing `/` — inside the sandbox the attachment
 * will be read in (nothing is listed outside it). Dot files only when the segment starts with
 * `.`; names with whitespace are left out (an `@word` ends at whitespace).
 */
export function completeAttachmentPath(partial: string, ctx: SandboxScope): CompletionEntry[] {
  const slash = partial.lastIndexOf('/');
  const dirPart = partial.slice(0, slash + 1);
  const namePrefix = partial.slice(slash + 1).toLowerCase();
  const dir = resolveSandboxedPath(dirPart === '' ? '.' : dirPart, ctx);
  if (!dir.ok) return [];
  const names = listNames(dir.path, (name) => {
    if (!name.toLowerCase().startsWith(namePrefix)) return false;
    return !name.startsWith('.') || namePrefix.startsWith('.');
  });
  names.sort((a, b) => a.localeCompare(b));
  return names.slice(0, MAX_OFFERED).map((name) => describeEntry(dirPart, name, join(dir.path, name)));
}

/** The path in the same directory whose name is nearest to a missing `@path`'s (`notse.md` → `notes.md`). */
export function nearestAttachmentPath(path: string, ctx: SandboxScope): string | undefined {
  const slash = path.lastIndexOf('/');
  const dirPart = path.slice(0, slash + 1);
  const dir = resolveSandboxedPath(dirPart === '' ? '.' : dirPart, ctx);
  if (!dir.ok) return undefined;
  const near = suggest(
    path.slice(slash + 1),
    listNames(dir.path, () => true),
  );
  return near === undefined ? undefined : `${dirPart}${near}`;
}

/** Names in `dir` an `@word` can name (no whitespace) that `keep` accepts, at most MAX_ENTRIES_READ; [] when unreadable. */
function listNames(dir: string, keep: (name: string) => boolean): string[] {
  const names: string[] = [];
  let handle: Dir | undefined;
  try {
    handle = opendirSync(dir);
    for (let entry = handle.readSync(); entry && names.length < MAX_ENTRIES_READ; entry = handle.readSync()) {
      if (!/\s/.test(entry.name) && keep(entry.name)) names.push(entry.name);
    }
  } catch {
    return [];
  } finally {
    handle?.closeSync();
  }
  return names;
}

function describeEntry(dirPart: string, name: string, full: string): CompletionEntry {
  try {
    const stat = statSync(full);
    if (stat.isDirectory()) return { value: `${dirPart}${name}/`, summary: 'directory' };
    return { value: `${dirPart}${name}`, summary: stat.isFile() ? formatBytes(stat.size) : undefined };
  } catch {
    return { value: `${dirPart}${name}` };
  }
}
