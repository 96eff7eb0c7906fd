import { type Dir, opendirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletionEntry } from '../commands/command.js';
import { resolveSandboxedPath, type SandboxScope } from '../files/sandbox.js';
import { formatBytes } from '../text/format-bytes.js';

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
  const names: string[] = [];
  let handle: Dir | undefined;
  try {
    handle = opendirSync(dir.path);
    for (let entry = handle.readSync(); entry && names.length < MAX_ENTRIES_READ; entry = handle.readSync()) {
      const name = entry.name;
      if (/\s/.test(name) || !name.toLowerCase().startsWith(namePrefix)) continue;
      if (name.startsWith('.') && !namePrefix.startsWith('.')) continue;
      names.push(name);
    }
  } catch {
    return [];
  } finally {
    handle?.closeSync();
  }
  names.sort((a, b) => a.localeCompare(b));
  return names.slice(0, MAX_OFFERED).map((name) => describeEntry(dirPart, name, join(dir.path, name)));
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
