// Bundles the CLI into one ESM file: a bundle starts ~2.5x faster than loading unbundled dist/.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/ochat.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  splitting: false,
  minify: false,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Ink only loads the devtools when DEV=true; never ship them.
  alias: { 'react-devtools-core': './scripts/devtools-stub.mjs' },
  // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __ochatCreateRequire } from 'node:module'; const require = __ochatCreateRequire(import.meta.url);",
  },
});
