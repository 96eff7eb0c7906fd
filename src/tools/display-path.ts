import path from 'node:path';

/** A path as shown to the model: relative to `cwd` with `/` separators when inside it, else absolute. */
export function displayPath(absolutePath: string, cwd: string): string {
  const rel = path.relative(cwd, absolutePath);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return absolutePath;
  return rel.split(path.sep).join('/');
}

/** `src` → `src/`: a directory argument as shown in summary lines. */
export function asDirectory(p: string): string {
  return p.endsWith('/') ? p : `${p}/`;
}
