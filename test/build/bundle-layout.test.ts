/**
 * The layout scripts/build.mjs gives dist/ (run by `npm test` before the tests): everything a run
 * loads before the first frame in one CommonJS file, dist/ochat.cjs, and the rest under dist/lazy/
 * (the one-shot, the config parser and commander each in one CommonJS file too), which takes the
 * entry's modules from dist/ochat.cjs instead of bundling them again. No ES module loads before a
 * one-shot's reply or the first frame.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
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

/** The specifiers of a CommonJS bundle's require() calls with a literal specifier. */
function requires(code: string): string[] {
  return [...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
}

/** The specifiers of a bundle's dynamic imports with a literal specifier. */
function dynamicImports(code: string): string[] {
  return [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
}

describe('bundle layout', () => {
  /** The CommonJS files of dist/lazy/, each a module bundled whole. */
  const wholeModules = ['command-line.cjs', 'one-shot.cjs', 'parse-config.cjs'];

  it('bin/ochat and dist/ochat.cjs are CommonJS, and the entry requires no other file of the bundle but the whole modules', () => {
    expect(JSON.parse(readFileSync(join(root, 'bin/package.json'), 'utf8')).type).toBe('commonjs');
    const code = read('ochat.cjs');
    expect(staticImports(code)).toEqual([]);
    const bundleFiles = requires(code).filter((specifier) => !isBuiltin(specifier));
    expect([...new Set(bundleFiles)].sort()).toEqual(wholeModules.map((name) => `./lazy/${name}`));
    expect(requires(readFileSync(join(root, 'bin/ochat'), 'utf8'))).toEqual([
      'node:module',
      '../dist/ochat.cjs',
    ]);
  });

  it('each whole module is one CommonJS file: it requires the entry and no other file of dist/lazy/, and imports nothing', () => {
    expect(
      readdirSync(join(dist, 'lazy'))
        .filter((name) => name.endsWith('.cjs'))
        .sort(),
    ).toEqual(wholeModules);
    for (const name of wholeModules) {
      const code = read(join('lazy', name));
      expect(staticImports(code)).toEqual([]);
      expect(requires(code).filter((specifier) => !isBuiltin(specifier))).toEqual(['../ochat.cjs']);
      // Run from a code cache (src/code-cache.ts), which cannot import().
      expect(dynamicImports(code)).toEqual([]);
    }
  });

  it('conf (the state file, after a reply) is imported by dist/ochat.cjs, where app-state.ts is', () => {
    expect(dynamicImports(read('ochat.cjs'))).toContain('./lazy/conf.js');
  });

  it('each dynamic import of dist/ochat.cjs is an ES module of dist/lazy/', () => {
    const imports = dynamicImports(read('ochat.cjs'));
    expect(imports).toEqual(expect.arrayContaining(['./lazy/interactive.js', './lazy/line-mode.js']));
    for (const specifier of imports) {
      expect(specifier).toMatch(/^\.\/lazy\/[\w-]+\.js$/);
      expect(existsSync(join(dist, specifier))).toBe(true);
    }
  });

  it('the lazy ES modules require dist/ochat.cjs through the package import #ochat, from one chunk, and never import it', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.imports['#ochat']).toBe('./dist/ochat.cjs');
    const lazyFiles = readdirSync(join(dist, 'lazy'), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.js'));
    // Required, not imported: an import of CommonJS runs Node's scanner of its exports first.
    const requiring = lazyFiles.filter((name) => read(join('lazy', name)).includes('("#ochat")'));
    expect(requiring).toHaveLength(1);
    for (const name of lazyFiles) {
      expect(
        staticImports(read(join('lazy', name))).filter((specifier) => specifier.includes('ochat')),
      ).toEqual([]);
    }
  });

  it('regular expressions with Unicode properties stay literals, parsed on first use, not as a module loads', () => {
    const files = [
      'ochat.cjs',
      ...readdirSync(join(dist, 'lazy'), { recursive: true }).map((name) => join('lazy', String(name))),
    ].filter((name) => /\.c?js$/.test(name));
    const built = files.flatMap((name) => read(name).match(/new RegExp\("[^"]*\\\\p\{/g) ?? []);
    expect(built).toEqual([]);
    // string-width's, in the one-shot, as a literal.
    expect(read('lazy/one-shot.cjs')).toContain('\\p{Spacing_Mark}/v');
  });
});
