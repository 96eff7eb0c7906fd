/**
 * The source files scripts/build.mjs treats specially (scripts/build-sources.mjs) exist: one moved
 * or renamed would silently lose its treatment (a whole module bundled as chunks, the first frame
 * loaded as a chunk). The lazily loaded ones are still imported dynamically.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUILD_SOURCES,
  ENTRY,
  ENTRY_ALSO,
  INLINED,
  NEVER_BESIDE_CHAT,
  WHOLE,
  // @ts-expect-error: a plain .mjs build script without type declarations.
} from '../../scripts/build-sources.mjs';

const root = resolve(import.meta.dirname, '../..');

/** The source files src/ imports with import(), by path from the root. */
function dynamicallyImported(): Set<string> {
  const found = new Set<string>();
  for (const name of readdirSync(join(root, 'src'), { recursive: true }).map(String)) {
    const file = join(root, 'src', name);
    if (!/\.tsx?$/.test(name) || !statSync(file).isFile()) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
      /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g,
    )) {
      const target = relative(root, join(dirname(file), specifier)).replaceAll('\\', '/');
      for (const source of [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx')])
        if (existsSync(join(root, source))) found.add(source);
    }
  }
  return found;
}

describe('the source paths scripts/build.mjs names', () => {
  it('each is a file', () => {
    const sources: string[] = BUILD_SOURCES;
    expect(sources.length).toBeGreaterThanOrEqual(10);
    for (const path of sources)
      expect(existsSync(join(root, path)) && statSync(join(root, path)).isFile(), path).toBe(true);
  });

  it('the first frame and the whole modules are imported dynamically, the entry-also modules are not the entry', () => {
    const lazy = dynamicallyImported();
    for (const path of [...INLINED, ...WHOLE]) expect(lazy.has(path), path).toBe(true);
    expect(WHOLE).toEqual(expect.arrayContaining(NEVER_BESIDE_CHAT));
    expect(ENTRY_ALSO).not.toContain(ENTRY);
  });
});
