/**
 * The bundle-time patches of dependencies (scripts/dependency-patches-plugin.mjs) must not change
 * what the patched code computes: the patched modules, bundled as the CLI's build bundles them,
 * against the originals on random styled text, random Unicode, random Ink trees and headers.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as original from '@alcalzone/ansi-tokenize';
import { Chalk, supportsColor, supportsColorStderr } from 'chalk';
import { build } from 'esbuild';
import fc from 'fast-check';
import { Box as OriginalBox, Text as OriginalText, renderToString as originalRenderToString } from 'ink';
import { Ollama as OriginalOllama } from 'ollama';
import { createElement as originalCreateElement, type ReactNode } from 'react';
import originalStringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import originalMeasureText from '../../node_modules/ink/build/measure-text.js';
import OriginalOutput from '../../node_modules/ink/build/output.js';
import originalWrapText from '../../node_modules/ink/build/wrap-text.js';
// @ts-expect-error: a plain .mjs build script without type declarations.
import { STAND_INS } from '../../scripts/bundle-options.mjs';
// @ts-expect-error: a plain .mjs build script without type declarations.
import { dependencyPatchesPlugin, PATCHED_PACKAGES } from '../../scripts/dependency-patches-plugin.mjs';
// @ts-expect-error: a plain .mjs build script without type declarations.
import { yogaWasmPlugin } from '../../scripts/yoga-wasm-plugin.mjs';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'ochat-patches-'));
// biome-ignore lint/suspicious/noExplicitAny: the bundled modules' exports, untyped.
let patched: any;

beforeAll(async () => {
  const result = await build({
    absWorkingDir: root,
    stdin: {
      contents: `export { styledCharsToString, styledCharsFromTokens, tokenize } from '@alcalzone/ansi-tokenize';
export { default as Output } from './node_modules/ink/build/output.js';
export { default as stringWidth } from './node_modules/string-width/index.js';
export { default as measureText } from './node_modules/ink/build/measure-text.js';
export { default as wrapText } from './node_modules/ink/build/wrap-text.js';
export { Box, Text, renderToString } from 'ink';
export { createElement } from 'react';
export { Ollama } from 'ollama';
export { supportsColor, supportsColorStderr } from 'chalk';`,
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    alias: STAND_INS,
    plugins: [yogaWasmPlugin, dependencyPatchesPlugin],
  });
  const file = join(dir, 'patched.mjs');
  writeFileSync(file, result.outputFiles[0].text);
  patched = await import(pathToFileURL(file).href);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const chalk = new Chalk({ level: 3 });
const styles = [
  (s: string) => s,
  chalk.bold,
  chalk.dim,
  chalk.italic,
  chalk.underline,
  chalk.inverse,
  chalk.cyan,
  chalk.bgBlue,
  chalk.bold.red,
  chalk.dim.underline,
  chalk.hex('#ff8800'),
  chalk.bgAnsi256(22).white,
  (s: string) => chalk.bold(`a${chalk.dim(s)}b`),
];
const text = fc.constantFrom('x', 'word ', '  ', '漢字', '🌍', 'é', '`code`', '│', '›');
/** A line of pieces of text, each in one of the styles (some nested). */
const styledLine = fc
  .array(fc.tuple(fc.nat(styles.length - 1), fc.array(text, { minLength: 1, maxLength: 4 })), {
    maxLength: 8,
  })
  .map((pieces) => pieces.map(([style, words]) => styles[style](words.join(''))).join(''));

describe('dependency patches', () => {
  it('ansi-tokenize: a line renders to the same text as the original', () => {
    fc.assert(
      fc.property(styledLine, (line) => {
        const render = (lib: typeof original) =>
          lib.styledCharsToString(lib.styledCharsFromTokens(lib.tokenize(line)));
        expect(render(patched)).toBe(render(original));
      }),
      { numRuns: 500 },
    );
  });

  it("Ink's Output: a frame of writes (some clipped) is the same text as the original's", () => {
    const write = fc.record({
      x: fc.nat(30),
      y: fc.nat(6),
      lines: fc.array(styledLine, { minLength: 1, maxLength: 3 }),
      clip: fc.option(
        fc.record({
          x1: fc.nat(10),
          x2: fc.integer({ min: 10, max: 30 }),
          y1: fc.nat(2),
          y2: fc.integer({ min: 2, max: 8 }),
        }),
      ),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(write, { maxLength: 6 }),
        (width, height, writes) => {
          // biome-ignore lint/suspicious/noExplicitAny: Ink's Output class, untyped.
          const frame = (OutputClass: any) => {
            const output = new OutputClass({ width, height });
            for (const { x, y, lines, clip } of writes) {
              if (clip) output.clip(clip);
              output.write(x, y, lines.join('\n'), { transformers: [] });
              if (clip) output.unclip();
            }
            return output.get();
          };
          expect(frame(patched.Output)).toEqual(frame(OriginalOutput));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("Ink's bounded caches of text sizes and wrapped text: the same answers, past the bound too", () => {
    // 3,000 distinct texts (the caches start afresh at 2,000), each asked twice (a cache hit).
    const texts = fc.sample(fc.array(styledLine, { minLength: 1, maxLength: 3 }), { numRuns: 3000, seed: 7 });
    texts.forEach((lines, index) => {
      const text = `${index} ${lines.join('\n')}`;
      for (let round = 0; round < 2; round++) {
        expect(patched.measureText(text)).toEqual(originalMeasureText(text));
        for (const wrap of ['wrap', 'truncate-end'] as const) {
          expect(patched.wrapText(text, 12, wrap)).toBe(originalWrapText(text, 12, wrap));
        }
      }
    });
  });

  it('string-width (segmenter and property patterns built on first use): the same width as the original', () => {
    // Clusters that take each of its paths: ASCII, wide, emoji (RGI, ZWJ, keycap, flags, skin
    // tones), marks, Hangul jamo, halfwidth forms, controls and escape sequences.
    const piece = fc.oneof(
      fc.constantFrom('a', 'word ', '漢', 'ｱﾞ', 'é', 'e\u0301', '🌍', '👍🏽', '👩‍💻', '🏳️‍🌈', '1\u20e3', '🇫🇷'),
      fc.constantFrom('\u1100\u1161', '\u1100\u1161\u11a8', '\u0903', '\u200b', '\t', '\x1b[1m', '\x1b[0m'),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.boolean(), (pieces, ambiguousIsNarrow) => {
        const text = pieces.join('');
        expect(patched.stringWidth(text, { ambiguousIsNarrow })).toBe(
          originalStringWidth(text, { ambiguousIsNarrow }),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it("Ink's rendering (each text's width read from measureText's cache): random trees render to the same text", () => {
    /** A tree of boxes and texts, built with either copy of React and Ink. */
    type Tree =
      | { kind: 'text'; lines: string[]; wrap: (typeof wraps)[number]; bold: boolean }
      | { kind: 'box'; width?: number; row: boolean; padding: number; border: boolean; children: Tree[] };
    const wraps = ['wrap', 'truncate', 'truncate-start', 'truncate-middle', 'end'] as const;
    const textNode = fc.record({
      kind: fc.constant('text' as const),
      lines: fc.array(styledLine, { minLength: 1, maxLength: 3 }),
      wrap: fc.constantFrom(...wraps),
      bold: fc.boolean(),
    });
    const { tree } = fc.letrec<{ tree: Tree }>((self) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        textNode,
        fc.record({
          kind: fc.constant('box' as const),
          width: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
          row: fc.boolean(),
          padding: fc.nat(2),
          border: fc.boolean(),
          children: fc.array(self('tree'), { maxLength: 3 }),
        }),
      ),
    }));
    // biome-ignore lint/suspicious/noExplicitAny: either copy's createElement, Box and Text.
    const toElement = (lib: { createElement: any; Box: any; Text: any }, node: Tree): ReactNode =>
      node.kind === 'text'
        ? lib.createElement(lib.Text, { wrap: node.wrap, bold: node.bold }, node.lines.join('\n'))
        : lib.createElement(
            lib.Box,
            {
              width: node.width,
              flexDirection: node.row ? 'row' : 'column',
              padding: node.padding,
              borderStyle: node.border ? 'single' : undefined,
            },
            ...node.children.map((child) => toElement(lib, child)),
          );
    const originalLib = { createElement: originalCreateElement, Box: OriginalBox, Text: OriginalText };
    fc.assert(
      fc.property(tree, fc.integer({ min: 1, max: 60 }), (node, columns) => {
        expect(patched.renderToString(toElement(patched, node), { columns })).toBe(
          originalRenderToString(toElement(originalLib, node), { columns }),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('ollama (Headers read only for a value that could be one): the same headers sent, and no Headers read for plain ones', async () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,10}$/);
    const pairs = fc.array(fc.tuple(name, fc.stringMatching(/^[ -~]{0,12}$/)), { maxLength: 4 });
    /** Every form a caller may give headers in (HeadersInit, or none). */
    const headersInit = fc.oneof(
      fc.constant(undefined),
      pairs.map((list) => ({ form: 'object', value: Object.fromEntries(list) })),
      pairs.map((list) => ({ form: 'array', value: list })),
      pairs.map((list) => ({ form: 'Headers', value: new Headers(list) })),
    );
    /** The headers a client built with `headers` sends for a request. */
    const sent = async (OllamaClass: typeof OriginalOllama, headers: HeadersInit | undefined) => {
      let seen: unknown;
      const client = new OllamaClass({
        host: 'http://127.0.0.1:9',
        headers,
        fetch: async (_url, init) => {
          seen = init?.headers;
          return new Response('{"models":[]}', { headers: { 'content-type': 'application/json' } });
        },
      });
      await client.list();
      return seen;
    };
    /** How often `run` reads the global `Headers` (reading it loads undici). */
    const headersReads = async (run: () => Promise<unknown>) => {
      const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'Headers');
      const value = globalThis.Headers;
      let reads = 0;
      Object.defineProperty(globalThis, 'Headers', {
        configurable: true,
        get: () => {
          reads++;
          return value;
        },
      });
      try {
        await run();
      } finally {
        if (descriptor) Object.defineProperty(globalThis, 'Headers', descriptor);
      }
      return reads;
    };
    await fc.assert(
      fc.asyncProperty(headersInit, async (init) => {
        const headers = init?.value;
        expect(await sent(patched.Ollama, headers)).toEqual(await sent(OriginalOllama, headers));
        if (init?.form !== 'Headers') expect(await headersReads(() => sent(patched.Ollama, headers))).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it("chalk's supports-color, with ochat's isatty instead of node:tty's, finds the colour levels the original finds", () => {
    expect(patched.supportsColor).toEqual(supportsColor);
    expect(patched.supportsColorStderr).toEqual(supportsColorStderr);
  });

  it('each patched package (and yoga-layout, which scripts/yoga-wasm-plugin.mjs rewrites) is pinned exactly, and installed at that version', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const pins: Record<string, string> = { ...pkg.devDependencies, ...pkg.overrides };
    const packages: string[] = [...PATCHED_PACKAGES, 'yoga-layout'];
    expect(packages).toEqual(
      expect.arrayContaining(['ink', '@alcalzone/ansi-tokenize', 'string-width', 'ollama', 'chalk']),
    );
    for (const name of packages) {
      expect(pins[name], name).toMatch(/^\d+\.\d+\.\d+$/);
      const installed = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));
      expect(installed.version, name).toBe(pins[name]);
    }
  });
});
