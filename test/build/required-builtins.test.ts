/**
 * The bundle imports node:fs and node:process through require(), re-exporting only their plain data
 * properties (scripts/required-builtins-plugin.mjs). esbuild cannot tell a missing name imported by
 * TypeScript from a type, so a source file importing an unexported name would get undefined at run
 * time: every name ochat's sources import from those modules must be one the bundle re-exports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  REQUIRED_BUILTINS,
  requiredBuiltinExports,
  // @ts-expect-error: a plain .mjs build script without type declarations.
} from '../../scripts/required-builtins-plugin.mjs';

const SRC = resolve(import.meta.dirname, '../../src');

/** Every `import { a, b as c } from '<module>'` of a source file: the imported names. */
function namedImports(source: string, module: string): string[] {
  const pattern = new RegExp(
    `import\\s*(?:type\\s+)?(?:\\w+\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*'(?:node:)?${module}'`,
    'g',
  );
  return [...source.matchAll(pattern)].flatMap((match) =>
    match[1]
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '' && !part.startsWith('type '))
      .map((part) => part.split(/\s+as\s+/)[0]),
  );
}

describe('required built-ins', () => {
  it('re-exports every name the sources import from node:fs and node:process', () => {
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const imported = new Map<string, Set<string>>();
    for (const file of files) {
      const source = readFileSync(join(SRC, file), 'utf8');
      for (const module of REQUIRED_BUILTINS as string[]) {
        for (const name of namedImports(source, module)) {
          if (!imported.has(module)) imported.set(module, new Set());
          imported.get(module)?.add(name);
        }
      }
    }
    expect(imported.get('fs')?.size).toBeGreaterThan(3); // the scan finds the imports there are
    for (const [module, names] of imported) {
      const exported = new Set(requiredBuiltinExports(module));
      expect([...names].filter((name) => !exported.has(name))).toEqual([]);
    }
  });

  it('does not re-export the lazy getters whose reading is the cost', () => {
    expect(requiredBuiltinExports('fs')).not.toContain('promises');
    expect(requiredBuiltinExports('process')).not.toContain('report');
    expect(requiredBuiltinExports('fs')).toContain('readFileSync');
  });
});
