// Bundle-time patches of bundled dependencies, each a set of exact text replacements that keeps
// the code's behaviour for every input and only removes a cost (one exception, marked: Ink's
// keypress crash fix). The build fails when a patch no longer matches (a dependency changed):
// look at the new code, then update or drop the patch.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const rootModules = fileURLToPath(new URL('../node_modules', import.meta.url));
/** ochat's isatty, which the supports-color patch takes instead of node:tty's. */
const earlyTerminal = fileURLToPath(new URL('../src/platform/early-terminal.ts', import.meta.url));

/** A filter for one file of a top-level dependency (not the copies nested under other packages). */
function topLevelFile(relativePath) {
  const path = join(rootModules, relativePath);
  return new RegExp(`^${path.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`);
}

/** Clears a Map cache before it passes 2,000 entries or 4 M characters of keys and values. */
const BOUNDED_CACHE = `let cachedChars = 0;
function cacheGrows(cache, chars) {
    cachedChars += chars;
    if (cache.size >= 2000 || cachedChars > 4000000) {
        cache.clear();
        cachedChars = chars;
    }
}
`;

/**
 * Each patch: the package it edits (pinned exactly in package.json, test/build/dependency-patches.test.ts
 * checks), the file, the edits, definitions to add.
 */
const PATCHES = [
  {
    // normalizeHeaders() starts with `headers instanceof Headers`: reading the global `Headers`
    // loads undici (Node's fetch), +74 ms on Node 22, on every run that talks to Ollama, though
    // ochat sends through node:http and never passes a Headers object. Read it only for a value
    // that could be one (has forEach, not an array).
    package: 'ollama',
    file: /[\\/]ollama[\\/]dist[\\/]browser\.mjs$/,
    edits: [
      {
        find: 'headers instanceof Headers',
        replace:
          '(typeof headers?.forEach === "function" && !Array.isArray(headers) && headers instanceof Headers)',
      },
    ],
  },
  {
    // Ink builds every frame on a grid of cells, one new object and array per cell (120×40 = 4,800
    // per frame) that are all replaced or dropped: one frozen blank cell for all of them instead.
    // Its caches of each line's cells and widths are new for every frame, though a frame repeats
    // most of the last one's lines (the prompt, the status line, all but the last row of a
    // streaming reply): keep them across frames, started afresh once they hold many lines.
    package: 'ink',
    file: /[\\/]ink[\\/]build[\\/]output\.js$/,
    edits: [
      { find: '    caches = new OutputCaches();', replace: '    caches = sharedOutputCaches();' },
      {
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
      },
    ],
    prepend: `const BLANK_CELL = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });
const SHARED_CACHE_ENTRIES = 300;
let sharedCaches;
function sharedOutputCaches() {
    if (sharedCaches === undefined ||
        sharedCaches.styledChars.size + sharedCaches.widths.size + sharedCaches.blockWidths.size > SHARED_CACHE_ENTRIES) {
        sharedCaches = new OutputCaches();
    }
    return sharedCaches;
}
`,
  },
  {
    // Every frame measured each text's widest line again to decide whether to wrap it, though
    // the layout has just measured the same text through measureText's cache: ask the cache.
    package: 'ink',
    file: /[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/,
    edits: [
      {
        find: 'const currentWidth = widestLine(text);',
        replace: 'const currentWidth = measureText(text).width;',
      },
    ],
    prepend: "import measureText from './measure-text.js';\n",
  },
  {
    // Ink's caches of text sizes and wrapped text keep every text they ever saw (each frame of a
    // streaming reply is a new one): started afresh once they hold many entries or characters.
    package: 'ink',
    file: /[\\/]ink[\\/]build[\\/]measure-text\.js$/,
    edits: [
      {
        find: '    cache.set(text, dimensions);',
        replace: '    cacheGrows(cache, text.length);\n    cache.set(text, dimensions);',
      },
    ],
    prepend: BOUNDED_CACHE,
  },
  {
    package: 'ink',
    file: /[\\/]ink[\\/]build[\\/]wrap-text\.js$/,
    edits: [
      { find: 'const cache = {};', replace: 'const cache = new Map();' },
      { find: 'const cachedText = cache[cacheKey];', replace: 'const cachedText = cache.get(cacheKey);' },
      {
        find: '    cache[cacheKey] = wrappedText;',
        replace:
          '    cacheGrows(cache, cacheKey.length + wrappedText.length);\n    cache.set(cacheKey, wrappedText);',
      },
    ],
    prepend: BOUNDED_CACHE,
  },
  {
    // A frame's text is built cell by cell, diffing each cell's styles against the previous one
    // with three Sets and four arrays, even when they are the same (most cells): skip the diff
    // then, since it is empty.
    package: '@alcalzone/ansi-tokenize',
    file: /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]styledChars\.js$/,
    edits: [
      {
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
      },
    ],
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
  {
    // The one patch that changes behaviour: a crash fix. A CSI key with Ctrl whose code Ink does
    // not name (Ctrl+F1-F4 in xterm, VTE and VS Code: ESC[1;5P-S; Ctrl+F13 and up) gave useInput
    // an undefined input, and its input.startsWith() threw: ochat died at the prompt. Upstream's
    // fix (ink#902: F1-F4 named, an unnamed code is '') is only in Ink 7.
    package: 'ink',
    file: /[\\/]ink[\\/]build[\\/]parse-keypress\.js$/,
    edits: [
      {
        find: "    OS: 'f4',\n",
        replace: "    OS: 'f4',\n    '[P': 'f1',\n    '[Q': 'f2',\n    '[R': 'f3',\n    '[S': 'f4',\n",
      },
      { find: '        key.name = keyName[code];', replace: "        key.name = keyName[code] ?? '';" },
    ],
  },
  {
    // chalk's supports-color imports node:tty for isatty(1) and isatty(2) as chalk loads, before
    // the first frame, and node:tty loads node:net and the streams (~2 ms CPU on Node 20). Take
    // isatty from src/platform/early-terminal.ts: the same check, through the binding node:tty
    // itself calls (or node:tty, loaded then, where that binding cannot be read).
    package: 'chalk',
    file: topLevelFile('chalk/source/vendor/supports-color/index.js'),
    edits: [
      {
        find: "import tty from 'node:tty';",
        replace: `import { isatty as ochatIsatty } from ${JSON.stringify(earlyTerminal)};`,
      },
      { find: 'tty.isatty(1)', replace: 'ochatIsatty(1)' },
      { find: 'tty.isatty(2)', replace: 'ochatIsatty(2)' },
    ],
  },
  {
    // string-width builds an Intl.Segmenter and /^\p{RGI_Emoji}$/v when it loads: 20–28 ms on
    // Node 22, paid by every run that imports it (the slash commands do), though printable ASCII
    // never uses either (its fast path). Build them, and its other property patterns, on first use.
    // Only ochat's own copy (8.x): the older copies nested under other packages are other code.
    package: 'string-width',
    file: topLevelFile('string-width/index.js'),
    edits: [
      { find: 'const segmenter = new Intl.Segmenter();', replace: 'let segmenter;' },
      { find: 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;', replace: 'let rgiEmojiRegex;' },
      {
        find: 'segmenter.segment(string)',
        replace: '(segmenter ??= new Intl.Segmenter()).segment(string)',
      },
      {
        find: 'rgiEmojiRegex.test(segment)',
        replace: '(rgiEmojiRegex ??= /^\\p{RGI_Emoji}$/v).test(segment)',
      },
      // Its three other property patterns too: run from a code cache, a pattern is parsed when its
      // literal is first evaluated, and these cost a one-shot ~0.7 ms at load though it measures
      // no text before its first byte.
      {
        find: 'const visibleCharacterRegex = /[^\\p{Default_Ignorable_Code_Point}\\p{Control}\\p{Format}\\p{Nonspacing_Mark}\\p{Enclosing_Mark}\\p{Surrogate}]/v;',
        replace:
          'let visibleCharacterRegex;\nconst visibleCharacter = () => (visibleCharacterRegex ??= /[^\\p{Default_Ignorable_Code_Point}\\p{Control}\\p{Format}\\p{Nonspacing_Mark}\\p{Enclosing_Mark}\\p{Surrogate}]/v);',
      },
      { find: 'segment.search(visibleCharacterRegex)', replace: 'segment.search(visibleCharacter())' },
      { find: '!visibleCharacterRegex.test(character)', replace: '!visibleCharacter().test(character)' },
      { find: 'const spacingMarkRegex = /\\p{Spacing_Mark}/v;', replace: 'let spacingMarkRegex;' },
      {
        find: 'spacingMarkRegex.test(character)',
        replace: '(spacingMarkRegex ??= /\\p{Spacing_Mark}/v).test(character)',
      },
      {
        find: 'const extendedPictographicRegex = /\\p{Extended_Pictographic}/gu;',
        replace: 'let extendedPictographicRegex;',
      },
      {
        find: 'segment.match(extendedPictographicRegex)',
        replace: 'segment.match((extendedPictographicRegex ??= /\\p{Extended_Pictographic}/gu))',
      },
    ],
  },
];

/** The packages the patches edit. */
export const PATCHED_PACKAGES = [...new Set(PATCHES.map((patch) => patch.package))];

/** The esbuild plugin. */
export const dependencyPatchesPlugin = {
  name: 'dependency-patches',
  setup(build) {
    for (const patch of PATCHES) {
      build.onLoad({ filter: patch.file }, ({ path }) => {
        let source = readFileSync(path, 'utf8');
        for (const { find, replace } of patch.edits) {
          if (source.split(find).length !== 2) {
            throw new Error(
              `dependency-patches: expected ${JSON.stringify(find)} once in ${path}; update the patch`,
            );
          }
          source = source.replace(find, () => replace);
        }
        // Prepended definitions go after the imports (ESM hoists imports either way).
        return { contents: source + (patch.prepend ? `\n${patch.prepend}` : ''), loader: 'js' };
      });
    }
  },
};
