// Ink's layout engine (yoga) ships its wasm as a base64 data: URI that Emscripten decodes with
// atob and loads through fetch(): that loads undici and decodes in JS before the first frame can
// be drawn. This plugin moves the bytes into a Buffer decoded natively and hands them to yoga
// as `wasmBinary`, so neither happens. Same wasm, same API.
import { readFileSync } from 'node:fs';

const DATA_URI = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

/** The esbuild plugin. */
export const yogaWasmPlugin = {
  name: 'yoga-wasm-binary',
  setup(build) {
    let wasmBase64;
    build.onLoad(
      { filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ },
      ({ path }) => {
        const source = readFileSync(path, 'utf8');
        const match = DATA_URI.exec(source);
        if (!match) throw new Error(`yoga-wasm-binary: no embedded wasm found in ${path}; update the plugin`);
        wasmBase64 = match[1];
        // Keep a valid (empty) data: URI so Emscripten's checks still pass; the bytes come from wasmBinary.
        return {
          contents: source.replace(DATA_URI, '"data:application/octet-stream;base64,"'),
          loader: 'js',
        };
      },
    );
    build.onLoad({ filter: /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, ({ path }) => {
      const binaries = path.replace(/src[\\/]index\.js$/, 'binaries/yoga-wasm-base64-esm.js');
      wasmBase64 ??= DATA_URI.exec(readFileSync(binaries, 'utf8'))?.[1];
      if (!wasmBase64) throw new Error('yoga-wasm-binary: no embedded wasm found; update the plugin');
      return {
        contents: `import loadYoga from '../binaries/yoga-wasm-base64-esm.js';
import wrapAssembly from './wrapAssembly.js';
const wasmBinary = Buffer.from(${JSON.stringify(wasmBase64)}, 'base64');
const Yoga = wrapAssembly(await loadYoga({ wasmBinary }));
export default Yoga;
export * from './generated/YGEnums.js';
`,
        loader: 'js',
        resolveDir: path.replace(/[\\/]index\.js$/, ''),
      };
    });
  },
};
