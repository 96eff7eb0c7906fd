/**
 * The layout scripts/build.mjs gives dist/ (run by `npm test` before the tests): everything a run
 * loads before the first frame in one file, dist/ochat.js, and the rest under dist/lazy/ (the
 * one-shot in one file too), which takes the entry's modules from dist/ochat.js instead of
 * bundling them again.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'dist');
const read = (path: string) => readFileSync(join(dist, path), 'utf8');

/** The specifiers of a bundle's static imports and re-exports (`import … from "x"`, `import "x"`). */
function staticImports(code: string): string[] {
  return [
    ...code.matchAll(/(?:^|[;\s})])(?:import|export)\s*(?:[\w$*{},\s]*?\bfrom\s*)?["']([^"']+)["']/g),
  ].map((match) => match[1]);
}

/** The specifiers of a bundle's dynamic imports with a literal specifier. */
function dynamicImports(code: string): string[] {
  return [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
}

describe('bundle layout', () => {
  it('dist/ochat.js imports no other file of the bundle statically: only Node modules', () => {
    const imports = staticImports(read('ochat.js'));
    expect(imports).toContain('node:module');
    expect(imports.filter((specifier) => !specifier.startsWith('node:'))).toEqual([]);
  });

  it('the one-shot is one file: it imports no other file of dist/lazy/ before its reply', () => {
    const imports = staticImports(read('lazy/one-shot.js'));
    expect(imports.filter((specifier) => !specifier.startsWith('node:') && specifier !== '#ochat')).toEqual(
      [],
    );
    // conf (the state file, after the reply) is its only dynamic import.
    expect(dynamicImports(read('lazy/one-shot.js'))).toEqual(['./conf.js']);
  });

  it('each dynamic import of dist/ochat.js is a file of dist/lazy/', () => {
    const imports = dynamicImports(read('ochat.js'));
    expect(imports).toEqual(expect.arrayContaining(['./lazy/interactive.js', './lazy/one-shot.js']));
    for (const specifier of imports) {
      expect(specifier).toMatch(/^\.\/lazy\/[\w-]+\.js$/);
      expect(existsSync(join(dist, specifier))).toBe(true);
    }
  });

  it('dist/lazy/ reaches dist/ochat.js through the package import #ochat: the one-shot, and one chunk of the rest', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.imports['#ochat']).toBe('./dist/ochat.js');
    const lazyFiles = readdirSync(join(dist, 'lazy'), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.js'));
    const importing = lazyFiles.filter((name) => staticImports(read(join('lazy', name))).includes('#ochat'));
    // The one-shot is bundled whole, apart from the chunks the chat, line mode and commander share.
    expect(importing).toContain('one-shot.js');
    expect(importing.filter((name) => name !== 'one-shot.js')).toHaveLength(1);
    for (const name of lazyFiles) {
      expect(
        staticImports(read(join('lazy', name))).filter((specifier) => specifier.includes('ochat.js')),
      ).toEqual([]);
    }
  });
});
