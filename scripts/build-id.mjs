// The fingerprint of what a build is made of: every source file, the build scripts, package.json and
// the locked dependencies. The build stamps it into the bundle (a config file parsed by one build is
// kept for that build only: src/config/parsed-config-cache.ts) and writes it to dist/build-id, so a
// stale dist/ can be told from a fresh one (scripts/ensure-build.mjs, test/support/fresh-build.ts).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The file dist/ keeps the id of the sources it was built from in. */
export const BUILD_ID_FILE = join('dist', 'build-id');

export function buildId(root) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const hash = createHash('sha256').update(version);
  for (const folder of ['src', 'scripts']) {
    const names = readdirSync(join(root, folder), { recursive: true }).map(String).sort();
    for (const name of names) {
      const path = join(root, folder, name);
      if (statSync(path).isFile()) hash.update(`${folder}/${name}`).update(readFileSync(path));
    }
  }
  return hash
    .update(readFileSync(join(root, 'package.json')))
    .update(readFileSync(join(root, 'package-lock.json')))
    .digest('hex')
    .slice(0, 16);
}

/** The id dist/ was built from, or undefined when there is no build. */
export function builtId(root) {
  const file = join(root, BUILD_ID_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}
