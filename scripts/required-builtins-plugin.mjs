// On Node 22 the ESM facade of a built-in module reads every export once, getters included:
// `import process from 'node:process'` reads `process.report` (loading the report module) and
// `import { readFileSync } from 'node:fs'` reads `fs.promises` (loading fs/promises and readline),
// 3-5 ms of every start each. The bundle takes these modules through require() instead (each
// chunk's banner defines it), re-exporting their plain data properties by name; an accessor (a lazy
// getter such as `fs.promises`) is not re-exported: a dependency importing one by name fails the
// build, and test/build/required-builtins.test.ts checks ochat's own imports.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const REQUIRED_BUILTINS = ['fs', 'process'];
const NAMESPACE = 'required-builtin';

/** The names the bundle re-exports of built-in `name`: its plain data properties, which reading costs nothing. */
export function requiredBuiltinExports(name) {
  const module = require(`node:${name}`);
  return Object.keys(module).filter(
    (key) =>
      /^[A-Za-z_$][\w$]*$/.test(key) &&
      key !== 'default' &&
      !Object.getOwnPropertyDescriptor(module, key)?.get,
  );
}

/** The esbuild plugin. */
export const requiredBuiltinsPlugin = {
  name: 'required-builtins',
  setup(build) {
    const filter = new RegExp(`^(node:)?(${REQUIRED_BUILTINS.join('|')})$`);
    build.onResolve({ filter }, (args) => {
      // Only ESM imports: a CommonJS require() already gets the module object itself.
      if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined;
      return { path: args.path.replace(/^node:/, ''), namespace: NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, ({ path }) => ({
      contents: [
        `const builtin = require('node:${path}');`,
        'export default builtin;',
        ...requiredBuiltinExports(path).map((key) => `export const ${key} = builtin.${key};`),
      ].join('\n'),
      loader: 'js',
    }));
  },
};
