// Bundle-time patches of bundled dependencies, each an exact text replacement that keeps the
// code's behaviour for every input and only removes a cost. The build fails when a patch no
// longer matches (a dependency changed): look at the new code, then update or drop the patch.
import { readFileSync } from 'node:fs';

const PATCHES = [
  {
    // normalizeHeaders() starts with `headers instanceof Headers`: reading the global `Headers`
    // loads undici (Node's fetch), +74 ms on Node 22, on every run that talks to Ollama, though
    // ochat sends through node:http and never passes a Headers object. Read it only for a value
    // that could be one (has forEach, not an array).
    file: /[\\/]ollama[\\/]dist[\\/]browser\.mjs$/,
    find: 'headers instanceof Headers',
    replace:
      '(typeof headers?.forEach === "function" && !Array.isArray(headers) && headers instanceof Headers)',
  },
  {
    // Ink builds every frame on a grid of cells, one new object and array per cell (120×40 = 4,800
    // per frame) that are all replaced or dropped: one frozen blank cell for all of them instead.
    file: /[\\/]ink[\\/]build[\\/]output\.js$/,
    find: `            const row = [];
            for (let x = 0; x < this.width; x++) {
                row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });
            }`,
    replace: '            const row = new Array(this.width).fill(BLANK_CELL);',
    prepend:
      "const BLANK_CELL = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });\n",
  },
  {
    // A frame's text is built cell by cell, diffing each cell's styles against the previous one
    // with three Sets and four arrays, even when they are the same (most cells): skip the diff
    // then, since it is empty.
    file: /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]styledChars\.js$/,
    find: `        else {
            ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
        }
        ret += char.value;
        // reset active styles at the end of the string
        if (i === chars.length - 1) {`,
    replace: `        else if (!sameStyles(chars[i - 1].styles, char.styles)) {
            ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
        }
        ret += char.value;
        // reset active styles at the end of the string
        if (i === chars.length - 1 && char.styles.length > 0) {`,
    prepend: `function sameStyles(a, b) {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
        if (a[i].code !== b[i].code || a[i].endCode !== b[i].endCode) return false;
    }
    return true;
}
`,
  },
];

/** The esbuild plugin. */
export const dependencyPatchesPlugin = {
  name: 'dependency-patches',
  setup(build) {
    for (const patch of PATCHES) {
      build.onLoad({ filter: patch.file }, ({ path }) => {
        const source = readFileSync(path, 'utf8');
        if (source.split(patch.find).length !== 2) {
          throw new Error(`dependency-patches: expected the patched text once in ${path}; update the patch`);
        }
        // Prepended definitions go after the imports (ESM hoists imports either way).
        return {
          contents: source.replace(patch.find, patch.replace) + (patch.prepend ? `\n${patch.prepend}` : ''),
          loader: 'js',
        };
      });
    }
  },
};
