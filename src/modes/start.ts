import { join } from 'node:path';
import { requireWhole } from '../platform/code-cache.js';

// What bin/ochat runs on a Node without V8's on-disk compile cache (module.enableCompileCache,
// Node >= 22.1): dist/ochat.cjs from the code cache the build's whole modules use, kept as the
// first run exits, so with every function that run compiled. Bundled into bin/ochat itself
// (scripts/build.mjs), inside a function only such a Node calls: a file of its own cost 0.9 ms CPU
// of the first frame on Node 20. Registered in require.cache: the lazy modules' require of
// dist/ochat.cjs gets this one. Code compiled from a cache cannot import(): the entry imports
// through `importLazy`, this file's. Nothing here may cost more than compiling the entry would.
// Normalized: the key of require.cache that the lazy modules' require of dist/ochat.cjs finds.
const entry = join(__dirname, '..', 'dist', 'ochat.cjs');
requireWhole(entry, () => require(entry), process.env, {
  register: true,
  // Compiled here, not from the cache: the entry's imports of dist/lazy/.
  importLazy: (specifier) => {
    // `./lazy/…`, from bin/; a variable, which esbuild leaves to Node.
    const fromBin = `../dist/${specifier.slice(2)}`;
    return import(fromBin);
  },
});
