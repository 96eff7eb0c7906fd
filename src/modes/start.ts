import { join } from 'node:path';
import { requireWhole } from '../platform/code-cache.js';

// What bin/ochat runs on a Node without V8's on-disk compile cache (module.enableCompileCache,
// Node >= 22.1): dist/ochat.cjs from the code cache the build's whole modules use, kept as the
// first run exits, so with every function that run compiled. Registered in require.cache: the lazy
// modules' require of dist/ochat.cjs gets this one. Code compiled from a cache cannot import():
// the entry imports through `importLazy`, this file's. Its own file, small: nothing here may cost more
// than compiling the entry would.
const entry = join(__dirname, 'ochat.cjs');
requireWhole(entry, () => require(entry), process.env, {
  register: true,
  // Compiled here, not from the cache: the entry's imports of dist/lazy/, from the same folder.
  importLazy: (specifier) => import(specifier),
});
