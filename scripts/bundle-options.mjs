// esbuild options shared by the CLI build and the benchmarks' reference programs, so that a
// comparison measures the same kind of bundle.
import { fileURLToPath } from 'node:url';
import { dependencyPatchesPlugin } from './dependency-patches-plugin.mjs';
import { yogaWasmPlugin } from './yoga-wasm-plugin.mjs';

/** Options for an ESM Node bundle of `entryPoints` into `outdir`. */
export function bundleOptions({ entryPoints, outdir, define = {} }) {
  return {
    absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
    entryPoints,
    outdir,
    // Split so that lazily imported modules (markdown, highlighting) load only when first needed.
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    splitting: true,
    minify: process.env.OCHAT_BUILD_MINIFY !== '0',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"', ...define },
    // Ink only loads the devtools when DEV=true; never ship them. Code blocks are highlighted by
    // src/ui/markdown/highlight-code.ts, never by marked-terminal's cli-highlight. The npm client's
    // browser build imports a fetch polyfill for old browsers (10 kB run on every start): ochat
    // gives the client its own fetch (src/ollama/http-fetch.ts).
    alias: {
      'react-devtools-core': './scripts/devtools-stub.mjs',
      'cli-highlight': './scripts/cli-highlight-stub.mjs',
      'whatwg-fetch': './scripts/empty-module.mjs',
    },
    plugins: [yogaWasmPlugin, dependencyPatchesPlugin],
    // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __ochatCreateRequire } from 'node:module'; const require = __ochatCreateRequire(import.meta.url);",
    },
  };
}
