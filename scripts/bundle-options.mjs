// esbuild options shared by the CLI build and the benchmarks' reference programs, so that a
// comparison measures the same kind of bundle.
import { fileURLToPath } from 'node:url';
import { dependencyPatchesPlugin } from './dependency-patches-plugin.mjs';
import { yogaWasmPlugin } from './yoga-wasm-plugin.mjs';

/**
 * Packages the bundle gets a stand-in for, by specifier (test/build/stand-ins.test.ts checks that
 * each provides what its importers use). Ink only loads the devtools when DEV=true; never ship
 * them. Code blocks are highlighted by src/ui/markdown/highlight-code.ts, never by
 * marked-terminal's cli-highlight. The npm client's browser build imports a fetch polyfill for old
 * browsers (10 kB run on every start): ochat gives the client its own fetch
 * (src/ollama/http-fetch.ts).
 */
export const STAND_INS = {
  'react-devtools-core': './scripts/devtools-stub.mjs',
  'cli-highlight': './scripts/cli-highlight-stub.mjs',
  'whatwg-fetch': './scripts/empty-module.mjs',
};

/**
 * Options for a Node bundle of `entryPoints` into `outdir`: ESM, or CommonJS for what runs before
 * the first frame or byte (Node sets up its ESM loader for the first ES module: 3-5 ms on Node
 * 20-22). CommonJS cannot be split or hold a top-level await (yoga's): the chat stays ESM.
 */
export function bundleOptions({ entryPoints, outdir, define = {}, format = 'esm' }) {
  const esm = format === 'esm';
  return {
    absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
    entryPoints,
    outdir,
    // Split so that lazily imported modules (markdown, highlighting) load only when first needed.
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    target: 'node20',
    // Node 20 has both, but esbuild rewrites such literals as `new RegExp(…)` for it, which V8
    // parses as the module loads (string-width's three: ~0.5 ms of a one-shot); a literal is
    // parsed when first used.
    supported: { 'regexp-set-notation': true, 'regexp-unicode-property-escapes': true },
    format,
    splitting: esm,
    minify: process.env.OCHAT_BUILD_MINIFY !== '0',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    define: {
      'process.env.NODE_ENV': '"production"',
      // createRequire takes a path as well as a URL: CommonJS has no import.meta.
      ...(esm ? {} : { 'import.meta.url': '__filename' }),
      ...define,
    },
    alias: STAND_INS,
    plugins: [yogaWasmPlugin, dependencyPatchesPlugin],
    // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
    banner: esm
      ? {
          js: "import { createRequire as __ochatCreateRequire } from 'node:module'; const require = __ochatCreateRequire(import.meta.url);",
        }
      : {},
  };
}
