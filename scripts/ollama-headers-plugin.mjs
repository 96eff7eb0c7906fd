// The npm client's normalizeHeaders() starts with `headers instanceof Headers`: reading the global
// `Headers` loads undici (Node's fetch), +74 ms on Node 22, on every run that talks to Ollama, even
// though ochat sends through node:http and never passes a Headers object. This plugin reads
// `Headers` only for a value that could be one (has forEach, not an array): same result for every
// input, and undici stays unloaded.
import { readFileSync } from 'node:fs';

const CHECK = 'headers instanceof Headers';
const LAZY_CHECK =
  '(typeof headers?.forEach === "function" && !Array.isArray(headers) && headers instanceof Headers)';

/** The esbuild plugin. */
export const ollamaHeadersPlugin = {
  name: 'ollama-lazy-headers',
  setup(build) {
    build.onLoad({ filter: /[\\/]ollama[\\/]dist[\\/]browser\.mjs$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      if (source.split(CHECK).length !== 2) {
        throw new Error(`ollama-lazy-headers: expected one "${CHECK}" in ${path}; update the plugin`);
      }
      return { contents: source.replace(CHECK, LAZY_CHECK), loader: 'js' };
    });
  },
};
