// Bundles the CLI into one ESM file: a bundle starts ~2.5x faster than loading unbundled dist/.

import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Chunk names carry content hashes: clear out the previous build's.
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts'],
  // Split so that lazily imported modules (markdown, highlighting) load only when first needed.
  outdir: 'dist',
  entryNames: 'ochat',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  splitting: true,
  minify: process.env.OCHAT_BUILD_MINIFY !== '0',
  keepNames: false,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"', __OCHAT_VERSION__: JSON.stringify(version) },
  // Ink only loads the devtools when DEV=true; never ship them.
  alias: { 'react-devtools-core': './scripts/devtools-stub.mjs' },
  // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __ochatCreateRequire } from 'node:module'; const require = __ochatCreateRequire(import.meta.url);",
  },
});
