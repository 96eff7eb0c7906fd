// The source files scripts/build.mjs treats specially, by path from the repository root, in one
// place: a file moved or renamed without updating this list fails test/build/build-sources.test.ts
// (the build itself would silently stop treating it specially).

/** The CLI's entry: its static imports make up dist/ochat.cjs. */
export const ENTRY = 'src/modes/main.ts';

/**
 * What bin/ochat runs on a Node without module.enableCompileCache (< 22.1): dist/ochat.cjs from a
 * code cache. Bundled into bin/ochat (scripts/build.mjs); the stateless platform modules it uses are copies
 * of the entry's.
 */
export const START = 'src/modes/start.ts';

/** Dynamic imports bundled into dist/ochat.cjs anyway: the first frame goes up before any other load. */
export const INLINED = ['src/ui/first-frame.ts'];

/**
 * Lazy modules bundled whole, one CommonJS file each, loaded by require() with a code cache
 * (src/platform/code-cache.ts): what runs before a one-shot's first byte or the chat's first frame (the
 * one-shot; the config file's parser; commander, for the less common command lines) loads neither
 * chunks nor the ESM loader. With a config file, the first frame came 6-14 ms sooner on Node
 * 20-24. What a whole module imports dynamically is bundled in too (run only if called): code
 * compiled from a code cache cannot import(), and the build fails if a whole module does.
 */
export const WHOLE = ['src/modes/one-shot.ts', 'src/config/parse-config.ts', 'src/cli/command-line.ts'];

/** The whole modules no run loads beside the chat: the one-shot's copy of the controller never meets the chat's. */
export const NEVER_BESIDE_CHAT = ['src/modes/one-shot.ts'];

/**
 * What a whole module that runs before the chat may bundle though the chat bundles it too, a
 * second copy (the chat loads them for /set alone): the config file's validators, pure functions
 * and constant tables over zod/mini (allowed in build.mjs), whose module state ochat never reads.
 * The build fails on any other module bundled twice.
 */
export const MAY_DUPLICATE = [
  'src/config/describe-value.ts',
  'src/config/keep-alive.ts',
  'src/config/mcp-servers-schema.ts',
  'src/config/ollama-option-table.ts',
  'src/config/ollama-options.ts',
  'src/config/preprocess.ts',
  'src/text/dotted-key.ts',
  'src/text/suggest.ts',
];

/**
 * Modules put into dist/ochat.cjs though the entry does not import them: they import a package the
 * build keeps lazy or a lazy chunk (load-mcp.ts: the MCP client), and the whole modules that use
 * them cannot import().
 */
export const ENTRY_ALSO = ['src/config/app-state.ts', 'src/mcp/load-mcp.ts', 'src/openai/load-openai.ts'];

/** What loads a whole module with its code cache: the require() the entry's import of one becomes. */
export const CODE_CACHE = 'src/platform/code-cache.ts';

/** Every path above, each once. */
export const BUILD_SOURCES = [
  ...new Set([
    ENTRY,
    START,
    ...INLINED,
    ...WHOLE,
    ...NEVER_BESIDE_CHAT,
    ...MAY_DUPLICATE,
    ...ENTRY_ALSO,
    CODE_CACHE,
  ]),
];
