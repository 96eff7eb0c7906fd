// The build's fingerprint, shared by the build (which stamps dist/ with it) and `npm start` (which
// builds only when it changed).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where the build writes the id of what dist/ was built from (left out of the package). */
export const BUILD_ID_FILE = join('dist', 'build-id');

/** The folders and files a build is made of: the sources, the build scripts, the locked dependencies. */
const INPUT_DIRS = ['src', 'scripts'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];

/**
 * A fingerprint of what the build is made of: a config file parsed by one build is kept for that
 * build only (src/config/parsed-config-cache.ts), and `npm start` rebuilds only when it changed.
 */
export function buildId(root) {
  const hash = createHash('sha256');
  for (const dir of INPUT_DIRS) {
    const names = readdirSync(join(root, dir), { recursive: true }).map(String).sort();
    for (const name of names) {
      const path = join(root, dir, name);
      if (statSync(path).isFile()) hash.update(join(dir, name)).update(readFileSync(path));
    }
  }
  for (const name of INPUT_FILES) {
    const path = join(root, name);
    if (existsSync(path)) hash.update(name).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The id dist/ was built from, or undefined when it was never built (or the build failed). */
export function builtId(root) {
  const file = join(root, BUILD_ID_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** Whether dist/ was built from the sources as they are now. */
export function isBuildCurrent(root) {
  // bin/ochat is built too (it holds src/modes/start.ts).
  return existsSync(join(root, 'bin', 'ochat')) && builtId(root) === buildId(root);
}
