// Bundles the CLI: a bundle starts ~2.5x faster than loading unbundled modules. Every runtime
// dependency goes into dist/, so the published package needs none installed.
//
// Two stages, because every module file loaded before the first frame costs start-up time (one
// file instead of thirteen: the first frame 4-7 ms sooner on Node 20-24):
// - dist/ochat.cjs holds, in one file, what every run loads: src/modes/main.ts and its static imports,
//   plus the first frame (loaded, not run, by a one-shot). It also exports those modules. It is
//   CommonJS, like bin/ochat: a run that loads no ES module before its first frame or byte skips
//   setting up Node's ESM loader (3-5 ms on Node 20-22).
// - dist/lazy/ holds every other module main.ts reaches by a dynamic import: the chat UI, line
//   mode… split into ES module chunks as usual; the one-shot, the config file's parser and
//   commander each whole, in one CommonJS file. A module of the entry that they import is taken
//   from dist/ochat.cjs, never bundled twice: one ConfigError class, one copy of the sanitizer's
//   state.
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUILD_ID_FILE, buildId } from './build-id.mjs';
import {
  CODE_CACHE,
  ENTRY,
  ENTRY_ALSO,
  INLINED,
  MAY_DUPLICATE,
  NEVER_BESIDE_CHAT,
  START,
  WHOLE,
} from './build-sources.mjs';
import { bundleOptions } from './bundle-options.mjs';
import { thirdPartyNotices } from './third-party-notices.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'dist');
/** The command (package.json `bin`): requires the entry, and holds `START`. */
const BIN = join(root, 'bin', 'ochat');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const id = buildId(root);
const define = { __OCHAT_VERSION__: JSON.stringify(version), __OCHAT_BUILD_ID__: JSON.stringify(id) };

/** A module a whole module may bundle though the chat bundles it too (see `MAY_DUPLICATE`). */
const mayDuplicate = (input) => input.startsWith('node_modules/zod/') || MAY_DUPLICATE.includes(input);
/** Packages a dynamic import takes from dist/lazy/ (conf: 200 kB a one-shot needs only after its reply). */
const LAZY_PACKAGES = ['conf'];
/** How the lazy ES modules require dist/ochat.cjs: package.json `imports` maps it, from any depth. */
const ENTRY_SPECIFIER = '#ochat';
/**
 * How the whole modules (CommonJS, beside the chunks) require it: a relative path, because
 * require() resolves a package import with the ESM resolver, loaded for it (~1 ms).
 */
const ENTRY_PATH_FROM_LAZY = '../ochat.cjs';
/** The plugins every stage bundles with (dependency patches, yoga's wasm). */
const basePlugins = bundleOptions({}).plugins;
/** How the entry imports a lazy module (see below), and the name that replaces `import`: as long. */
const DYNAMIC_LAZY_IMPORT = 'import("./lazy/';
const LAZY_IMPORT = '__lazy';
/** A lazy module's output name: `src/ui/chat-app.tsx` → `chat-app`. */
const nameOf = (path) => basename(path).replace(/\.tsx?$/, '');

// Chunk names carry content hashes: clear out the previous build's.
rmSync(outdir, { recursive: true, force: true });

/** Where esbuild resolves `path` imported by `args`' importer, relative to the root. */
async function resolved(pluginBuild, args) {
  const result = await pluginBuild.resolve(args.path, {
    kind: args.kind,
    importer: args.importer,
    resolveDir: args.resolveDir,
    pluginData: { resolving: true },
  });
  return result.external || !result.path ? undefined : relative(root, result.path).replaceAll('\\', '/');
}

/**
 * Makes the entry's dynamic imports point at dist/lazy/ (all of them, or all but `INLINED`), and
 * collects what they import: the lazy stage's entry points. A whole module is CommonJS, loaded by
 * require() (an import() would set up the ESM loader) with its code cache (src/platform/code-cache.ts):
 * its import becomes one of a module that requires it so.
 */
function lazyImportsPlugin({ inline, lazyEntries }) {
  return {
    name: 'lazy-imports',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.namespace === 'require-whole' && args.path.startsWith('./lazy/'))
          return { path: args.path, external: true };
        if (args.kind !== 'dynamic-import' || args.pluginData?.resolving) return undefined;
        if (LAZY_PACKAGES.includes(args.path)) return { path: `./lazy/${args.path}.js`, external: true };
        const path = await resolved(pluginBuild, args);
        if (path === undefined || (inline && INLINED.includes(path))) return undefined;
        lazyEntries?.add(path);
        if (inline && WHOLE.includes(path))
          return { path: `./lazy/${nameOf(path)}.cjs`, namespace: 'require-whole' };
        return { path: `./lazy/${nameOf(path)}.js`, external: true };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: 'require-whole' }, ({ path }) => ({
        contents: [
          `const { requireWhole } = require('./${CODE_CACHE}');`,
          `module.exports = requireWhole(require('node:path').join(__dirname, ${JSON.stringify(path)}), () => require(${JSON.stringify(path)}));`,
        ].join('\n'),
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

// 1. The modules every run evaluates: main.ts's static closure (the first frame's is loaded
// lazily), and `ENTRY_ALSO`'s.
const lazyEntries = new Set();
const probe = await build({
  ...bundleOptions({ entryPoints: [ENTRY, ...ENTRY_ALSO], outdir, define }),
  splitting: false,
  write: false,
  metafile: true,
  plugins: [...basePlugins, lazyImportsPlugin({ inline: false, lazyEntries })],
});
const shared = Object.keys(probe.metafile.inputs).filter((path) => path !== ENTRY);
for (const path of INLINED) lazyEntries.delete(path);
if (new Set([...lazyEntries].map(nameOf)).size !== lazyEntries.size) {
  throw new Error(`build: two lazily imported modules share a file name: ${[...lazyEntries].join(', ')}`);
}

// 2. Their export names, so that the lazy stage can take each from dist/ochat.cjs.
const exportsProbe = await build({
  ...bundleOptions({ entryPoints: shared, outdir: join(outdir, 'exports-probe'), define }),
  write: false,
  metafile: true,
});
const exportNames = new Map(
  Object.values(exportsProbe.metafile.outputs)
    .filter((output) => output.entryPoint)
    .map((output) => [output.entryPoint, output.exports]),
);
/** The name dist/ochat.cjs exports module `index` of `shared` under. */
const namespaceOf = (index) => `m${index}`;

// 3. dist/ochat.cjs: the CLI, and every shared module as a namespace export.
const entry = await build({
  ...bundleOptions({ entryPoints: [], outdir, define, format: 'cjs' }),
  entryPoints: undefined,
  stdin: {
    contents: [
      `import './${ENTRY}';`,
      ...shared.map((path, index) => `export * as ${namespaceOf(index)} from './${path}';`),
    ].join('\n'),
    resolveDir: root,
    sourcefile: 'ochat-entry.js',
    loader: 'js',
  },
  outdir: undefined,
  outfile: join(outdir, 'ochat.cjs'),
  // Legal comments go to *.LEGAL.txt files, gathered into the notices below.
  legalComments: 'external',
  metafile: true,
  plugins: [...basePlugins, lazyImportsPlugin({ inline: true })],
  banner: { js: `var ${LAZY_IMPORT}=typeof importLazy=="function"?importLazy:s=>import(s);` },
});
// Code V8 compiled from a code cache cannot import() (the callback Node gave it is not in the
// cache): bin/ochat runs the entry so on Node < 22.1, so the entry's imports of dist/lazy/
// call the import() of its caller instead, `importLazy` (compiled in bin/ochat, mapped to
// dist/), or its own when run by require(). Same length: the source map's columns hold.
{
  const file = join(outdir, 'ochat.cjs');
  const code = readFileSync(file, 'utf8');
  const dynamic = Object.values(entry.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((imported) => imported.kind === 'dynamic-import');
  const found = code.split(DYNAMIC_LAZY_IMPORT).length - 1;
  if (found !== dynamic.length || found === 0) {
    throw new Error(
      `build: dist/ochat.cjs has ${found} ${DYNAMIC_LAZY_IMPORT}…) but ${dynamic.length} dynamic imports`,
    );
  }
  writeFileSync(file, code.replaceAll(DYNAMIC_LAZY_IMPORT, `${LAZY_IMPORT}("./lazy/`));
}

// 3b. bin/ochat: the entry required, from ochat's code cache where Node has no compile cache of its
// own (START, bundled into a function only such a Node calls: one file before the entry, not two).
const start = await build({
  ...bundleOptions({ entryPoints: [START], outdir, define, format: 'cjs' }),
  outdir: undefined,
  outfile: BIN,
  sourcemap: false,
  write: false,
  metafile: true,
});
writeFileSync(
  BIN,
  `#!/usr/bin/env node
// Built by scripts/build.mjs. CommonJS (bin/package.json), like dist/ochat.cjs: a run that loads no
// ES module before its first frame or byte skips setting up Node's ESM loader. V8's on-disk compile
// cache (Node >= 22.1; NODE_DISABLE_COMPILE_CACHE=1 turns it off) skips compiling the bundle on
// every start after the first: the bundle must be required after enabling it. Older Nodes run it
// from ochat's own code cache (${START}).
const { enableCompileCache } = require('node:module');
if (enableCompileCache) {
  enableCompileCache();
  require('../dist/ochat.cjs');
} else {
  (function () {
${start.outputFiles[0].text.trimEnd()}
  })();
}
`,
  { mode: 0o755 },
);
chmodSync(BIN, 0o755);
const startInputs = Object.keys(start.metafile.inputs);
if (startInputs.some((path) => !path.startsWith('src/platform/') && path !== START)) {
  throw new Error(`build: ${START} bundles more than src/platform/: ${startInputs.join(', ')}`);
}

// 4. dist/lazy/: the rest, each shared module replaced by its namespace in dist/ochat.cjs, which
// `entrySpecifier` names.
const sharedIndex = new Map(shared.map((path, index) => [path, index]));
/** The one module of the lazy stage that loads dist/ochat.cjs: resolving it once is cheaper. */
const ENTRY_NAMESPACES = 'ochat-entry-namespaces';
/**
 * The namespaces of dist/ochat.cjs. An ES module requires it: importing CommonJS would run Node's
 * scanner of its exports (cjs-module-lexer) first, ~5 ms the first time.
 */
function entryNamespacesModule(entrySpecifier, esm) {
  const all = shared.map((_, index) => namespaceOf(index)).join(', ');
  return esm
    ? `import { createRequire } from 'node:module';\nexport const { ${all} } = createRequire(import.meta.url)('${entrySpecifier}');`
    : `export { ${all} } from '${entrySpecifier}';`;
}
const fromEntryPlugin = (entrySpecifier, { esm }) => ({
  name: 'from-entry',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
      if (args.path === entrySpecifier) return { path: entrySpecifier, external: true };
      if (args.path === ENTRY_NAMESPACES) return { path: ENTRY_NAMESPACES, namespace: 'from-entry' };
      if (args.pluginData?.resolving || args.kind === 'entry-point') return undefined;
      const path = await resolved(pluginBuild, args);
      return path !== undefined && sharedIndex.has(path) ? { path, namespace: 'from-entry' } : undefined;
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'from-entry' }, ({ path }) => {
      if (path === ENTRY_NAMESPACES)
        return { contents: entryNamespacesModule(entrySpecifier, esm), loader: 'js' };
      const namespace = namespaceOf(sharedIndex.get(path));
      const names = exportNames.get(path) ?? [];
      const named = names.filter((name) => name !== 'default');
      return {
        contents: [
          `import { ${namespace} } from '${ENTRY_NAMESPACES}';`,
          named.length > 0 ? `export const { ${named.join(', ')} } = ${namespace};` : '',
          names.includes('default') ? `export default ${namespace}.default;` : '',
        ].join('\n'),
        loader: 'js',
      };
    });
  },
});
const lazy = await build({
  ...bundleOptions({ entryPoints: [], outdir: join(outdir, 'lazy'), define }),
  entryPoints: Object.fromEntries([
    ...[...lazyEntries].filter((path) => !WHOLE.includes(path)).map((path) => [nameOf(path), path]),
    ...LAZY_PACKAGES.map((name) => [name, name]),
  ]),
  entryNames: '[name]',
  legalComments: 'external',
  metafile: true,
  plugins: [...basePlugins, fromEntryPlugin(ENTRY_SPECIFIER, { esm: true })],
});

// 5. dist/lazy/<whole>.cjs: each whole module in one file. A package of `LAZY_PACKAGES` stays out
// of it: its import() fails the build below.
const lazyPackagesPlugin = {
  name: 'lazy-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && LAZY_PACKAGES.includes(args.path)
        ? { path: `./${args.path}.js`, external: true }
        : undefined,
    );
  },
};
const whole = [];
for (const path of WHOLE) {
  whole.push(
    await build({
      ...bundleOptions({ entryPoints: [path], outdir: join(outdir, 'lazy'), define, format: 'cjs' }),
      entryNames: '[name]',
      outExtension: { '.js': '.cjs' },
      legalComments: 'external',
      metafile: true,
      plugins: [lazyPackagesPlugin, ...basePlugins, fromEntryPlugin(ENTRY_PATH_FROM_LAZY, { esm: false })],
    }),
  );
}

// Bundled twice, a module would have two states and two identities: instanceof across the
// stages would fail.
for (const stage of [lazy, ...whole]) {
  const twice = shared.filter((path) => path in stage.metafile.inputs);
  if (twice.length > 0) throw new Error(`build: bundled in both stages: ${twice.join(', ')}`);
}
WHOLE.forEach((path, index) => {
  const imports = Object.values(whole[index].metafile.outputs).flatMap((output) => output.imports);
  const dynamic = imports.filter((imported) => imported.kind === 'dynamic-import');
  if (dynamic.length > 0) {
    throw new Error(
      `build: ${path} imports ${dynamic.map((imported) => imported.path).join(', ')} dynamically; code compiled from a code cache cannot import() (add the importer to ENTRY_ALSO)`,
    );
  }
  if (NEVER_BESIDE_CHAT.includes(path)) return;
  const twice = Object.keys(whole[index].metafile.inputs).filter(
    (input) => input in lazy.metafile.inputs && !input.startsWith('from-entry:') && !mayDuplicate(input),
  );
  if (twice.length > 0) {
    throw new Error(`build: ${path} runs before the chat, which bundles these too: ${twice.join(', ')}`);
  }
});

// What runs before the first frame or byte is read and compiled as one-byte text. esbuild escapes
// non-ASCII in strings, not in regular expressions: four such made a one-shot's bundle a two-byte
// string, read and compiled from its code cache ~0.8 ms slower. Escape them in the source (\u2026).
for (const file of [
  join(outdir, 'ochat.cjs'),
  BIN,
  ...WHOLE.map((path) => join(outdir, 'lazy', `${basename(path, '.ts')}.cjs`)),
]) {
  const text = readFileSync(file, 'utf8');
  const at = text.search(/[^\x00-\x7f]/);
  if (at !== -1) {
    throw new Error(
      `build: ${relative(root, file)} is not ASCII at ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}: escape it in the source (\\u…)`,
    );
  }
}

const legalFiles = readdirSync(outdir, { recursive: true }).filter((name) => name.endsWith('.LEGAL.txt'));
const legalComments = [...new Set(legalFiles.map((name) => readFileSync(join(outdir, name), 'utf8').trim()))];
for (const name of legalFiles) rmSync(join(outdir, name));
writeFileSync(
  join(outdir, 'THIRD-PARTY-NOTICES.txt'),
  thirdPartyNotices(
    root,
    { inputs: Object.assign({}, ...[entry, start, lazy, ...whole].map((stage) => stage.metafile.inputs)) },
    legalComments.join('\n\n'),
  ),
);
// Last: a build that failed leaves no stamp, so `npm start` builds again.
writeFileSync(join(root, BUILD_ID_FILE), `${id}\n`);
