import { isAbsolute, relative, sep } from 'node:path';

/** A path as shown to the model: relative to `cwd` with `/` separators when inside it, else absolute. */
export function displayPath(absolutePath: string, cwd: string): string {
  const rel = relative(cwd, absolutePath);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return absolutePath;
  return rel.split(sep).join('/');
}

/** `src` → `src/`: a directory argument as shown in summary lines. */
export function asDirectory(p: string): string {
  return p.endsWith('/') ? p : `${p}/`;
}
