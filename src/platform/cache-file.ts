import { renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirectory } from './make-directory.js';

/**
 * ochat's one atomic writer: writes a file whole and owner-only (the parsed config and code
 * caches, the trimmed input history) into a temporary file beside it, then renamed into place,
 * so that a reader (another ochat starting) never sees half of it. Makes the directory
 * (owner-only) when needed; fails as the file system calls do.
 */
export function writeCacheFile(file: string, data: string | Buffer): void {
  makeDirectory(dirname(file));
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, data, { mode: 0o600 });
  renameSync(partial, file);
}
