/**
 * What the bundle puts in place of a dependency must give its importers every name they use: the
 * stubs of scripts/bundle-options.mjs (`STAND_INS`) and yoga's entry as scripts/yoga-wasm-plugin.mjs
 * rewrites it. The importers are those of the CLI's real module graph (esbuild's metafile), read
 * for the names they take and the members of the default export they read. esbuild checks named
 * imports itself, not the members of a default import (`Yoga.Node`, `devtools.initialize`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as originalYoga from 'yoga-layout';
// @ts-expect-error: a plain .mjs build script without type declarations.
import { ENTRY } from '../../scripts/build-sources.mjs';
// @ts-expect-error: a plain .mjs build script without type declarations.
import { bundleOptions, STAND_INS } from '../../scripts/bundle-options.mjs';
// @ts-expect-error: a plain .mjs build script without type declarations.
import { yogaWasmPlugin } from '../../scripts/yoga-wasm-plugin.mjs';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'ochat-stand-ins-'));
const standIns: Record<string, string> = STAND_INS;
const YOGA_ENTRY = 'node_modules/yoga-layout/dist/src/index.js';
let graph: Metafile;
/** The rewritten yoga entry, bundled and loaded. */
let yoga: Record<string, unknown>;

/** Bundles `contents` (an ES module at the root) with `plugins` and imports the result. */
async function bundled(name: string, contents: string, plugins: unknown[]): Promise<Record<string, unknown>> {
  const result = await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    // biome-ignore lint/suspicious/noExplicitAny: the build scripts' plugins, untyped.
    plugins: plugins as any[],
  });
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, result.outputFiles[0].text);
  return import(pathToFileURL(file).href);
}

beforeAll(async () => {
  const result = await build({
    ...bundleOptions({ entryPoints: [ENTRY], outdir: join(dir, 'graph') }),
    write: false,
    metafile: true,
  });
  if (!result.metafile) throw new Error('esbuild wrote no metafile');
  graph = result.metafile;
  yoga = await bundled('yoga', "export * from 'yoga-layout'; export { default } from 'yoga-layout';", [
    yogaWasmPlugin,
  ]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A module of the repository by path from the root, as loaded at run time. */
const load = (path: string): Promise<Record<string, unknown>> => import(pathToFileURL(join(root, path)).href);

/** The modules of the CLI's graph that import `path` (a stand-in or a rewritten file). */
function importersOf(path: string): string[] {
  return Object.entries(graph.inputs)
    .filter(([, input]) => input.imports.some((imported) => imported.path === path))
    .map(([importer]) => importer);
}

/** What one module takes from `specifier`: named imports, and members read off the default or namespace. */
function namesUsed(text: string, specifier: string): { named: string[]; members: string[]; bare: boolean } {
  // A source map comment names the file (`devtools.js.map`): not a member read.
  const source = text.replace(/^\/\/# sourceMappingURL=.*$/m, '');
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const named: string[] = [];
  const members: string[] = [];
  let bare = false;
  let forms = 0;
  for (const [, clause] of source.matchAll(
    new RegExp(`\\bimport\\s*([^'";]*?)\\s*(?:from\\s*)?['"]${quoted}['"]`, 'g'),
  )) {
    forms++;
    if (clause === '') {
      bare = true;
      continue;
    }
    const braces = /\{([^}]*)\}/.exec(clause)?.[1];
    for (const part of braces?.split(',') ?? []) {
      const imported = part.trim().split(/\s+as\s+/)[0];
      if (imported) named.push(imported);
    }
    // `import X from`, `import X, { … } from`, `import * as X from`: the members of X read.
    const binding = /^(?:\*\s*as\s+)?([\w$]+)/.exec(clause.replace(/\{[^}]*\}/, '').trim())?.[1];
    if (binding) {
      for (const [, member] of source.matchAll(
        new RegExp(`\\b${binding.replace('$', '\\$')}\\.([\\w$]+)`, 'g'),
      ))
        members.push(member);
    }
  }
  // Any other way in (require, import()) is one this reading does not see: fail rather than pass.
  const mentions = source.match(new RegExp(`['"]${quoted}['"]`, 'g'))?.length ?? 0;
  expect(mentions, `every import of ${specifier} is an import statement`).toBe(forms);
  return { named: [...new Set(named)], members: [...new Set(members)], bare };
}

/** The names `module` lacks of those `importer` takes from `specifier`. */
function missing(module: Record<string, unknown>, importer: string, specifier: string): string[] {
  const { named, members } = namesUsed(readFileSync(join(root, importer), 'utf8'), specifier);
  const fallback = module.default as Record<string, unknown> | undefined;
  return [
    ...named.filter((name) => !(name in module)),
    ...members.filter((name) => fallback === undefined || !(name in fallback)),
  ];
}

describe('stand-ins in the bundle', () => {
  it("yoga's rewritten entry exports what the original does, and every name Ink's modules take from it", async () => {
    expect(Object.keys(yoga).sort()).toEqual(Object.keys(originalYoga).sort());
    expect(Object.keys(yoga.default as object).sort()).toEqual(Object.keys(originalYoga.default).sort());
    const importers = importersOf(YOGA_ENTRY);
    expect(importers).toEqual(expect.arrayContaining(['node_modules/ink/build/dom.js']));
    for (const importer of importers) {
      const used = namesUsed(readFileSync(join(root, importer), 'utf8'), 'yoga-layout');
      expect(used.named.length + used.members.length, importer).toBeGreaterThan(0);
      expect(missing(yoga, importer, 'yoga-layout'), importer).toEqual([]);
    }
    // The same wasm, laid out: a 10-wide node holds a child of half its width.
    const Yoga = yoga.default as typeof originalYoga.default;
    const node = Yoga.Node.create();
    const child = Yoga.Node.create();
    node.setWidth(10);
    child.setWidthPercent(50);
    node.insertChild(child, 0);
    node.calculateLayout(undefined, undefined, Yoga.DIRECTION_LTR);
    expect(child.getComputedWidth()).toBe(5);
    node.freeRecursive();
  });

  for (const [specifier, path] of Object.entries(standIns)) {
    it(`${specifier} (${path}): each of its importers in the CLI's graph finds every name it uses`, async () => {
      const stub = await load(path);
      const importers = importersOf(path.replace(/^\.\//, ''));
      expect(importers.length, `something in the CLI's graph imports ${specifier}`).toBeGreaterThan(0);
      for (const importer of importers) expect(missing(stub, importer, specifier), importer).toEqual([]);
    });
  }

  it('the stubs do what their importers rely on: nothing, and plain code from highlight', async () => {
    const devtools = (await load(standIns['react-devtools-core'])).default as Record<string, () => unknown>;
    expect(devtools.initialize()).toBeUndefined();
    expect(devtools.connectToDevTools()).toBeUndefined();
    const { highlight } = (await load(standIns['cli-highlight'])) as { highlight: (code: string) => string };
    expect(highlight('const x = 1;\n')).toBe('const x = 1;\n');
    // ollama imports the fetch polyfill for its side effect only: the stand-in has none, and no exports.
    expect(Object.keys(await load(standIns['whatwg-fetch']))).toEqual([]);
    expect(
      namesUsed(readFileSync(join(root, 'node_modules/ollama/dist/browser.mjs'), 'utf8'), 'whatwg-fetch')
        .bare,
    ).toBe(true);
  });
});
