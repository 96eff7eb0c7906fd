/**
 * The layout scripts/build.mjs gives dist/ (run by `npm test` before the tests): everything a run
 * loads before the first frame in one CommonJS file, dist/ochat.cjs, and the rest under dist/lazy/
 * (the one-shot, the config parser and commander each in one CommonJS file too), which takes the
 * entry's modules from dist/ochat.cjs instead of bundling them again. No ES module loads before a
 * one-shot's reply or the first frame.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAiEmulator } from '../support/openai-emulator.js';
import { type PtySession, spawnOchat } from '../support/pty-session.js';
import { waitUntil } from '../support/wait-until.js';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'dist');
const read = (path: string) => readFileSync(join(dist, path), 'utf8');

/** The specifiers of a bundle's static imports and re-exports (`import … from "x"`, `import "x"`). */
function staticImports(code: string): string[] {
  return [
    ...code.matchAll(/(?:^|[;\s})])(?:import|export)\s*(?:[\w$*{},\s]*?\bfrom\s*)?["']([^"']+)["']/g),
  ].map((match) => match[1]);
}

/** The specifiers of a CommonJS bundle's require() calls with a literal specifier. */
function requires(code: string): string[] {
  return [...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
}

/** The specifiers of a bundle's dynamic imports with a literal specifier. */
function dynamicImports(code: string): string[] {
  return [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
}

/**
 * The specifiers dist/ochat.cjs imports: through `__lazy`, its caller's import() when it runs from
 * a code cache (scripts/build.mjs), never by an import() of its own.
 */
function entryImports(code: string): string[] {
  expect(dynamicImports(code)).toEqual([]);
  return [...code.matchAll(/\b__lazy\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
}

describe('bundle layout', () => {
  /** The CommonJS files of dist/lazy/, each a module bundled whole. */
  const wholeModules = ['command-line.cjs', 'one-shot.cjs', 'parse-config.cjs'];

  it('bin/ochat and dist/ochat.cjs are CommonJS, and the entry requires no other file of the bundle but the whole modules', () => {
    expect(JSON.parse(readFileSync(join(root, 'bin/package.json'), 'utf8')).type).toBe('commonjs');
    const code = read('ochat.cjs');
    expect(staticImports(code)).toEqual([]);
    const bundleFiles = requires(code).filter((specifier) => !isBuiltin(specifier));
    expect([...new Set(bundleFiles)].sort()).toEqual(wholeModules.map((name) => `./lazy/${name}`));
    // The code cache's loader for Node < 22.1 is bundled in, not a file of its own.
    const binFiles = requires(readFileSync(join(root, 'bin/ochat'), 'utf8')).filter(
      (specifier) => !isBuiltin(specifier),
    );
    expect(binFiles).toEqual(['../dist/ochat.cjs']);
    expect(readdirSync(dist).filter((name) => name.endsWith('.cjs'))).toEqual(['ochat.cjs']);
  });

  it('each whole module is one CommonJS file: it requires the entry and no other file of dist/lazy/, and imports nothing', () => {
    expect(
      readdirSync(join(dist, 'lazy'))
        .filter((name) => name.endsWith('.cjs'))
        .sort(),
    ).toEqual(wholeModules);
    for (const name of wholeModules) {
      const code = read(join('lazy', name));
      expect(staticImports(code)).toEqual([]);
      expect(requires(code).filter((specifier) => !isBuiltin(specifier))).toEqual(['../ochat.cjs']);
      // Run from a code cache (src/code-cache.ts), which cannot import().
      expect(dynamicImports(code)).toEqual([]);
    }
  });

  it('conf (the state file, after a reply) is imported by dist/ochat.cjs, where app-state.ts is', () => {
    expect(entryImports(read('ochat.cjs'))).toContain('./lazy/conf.js');
  });

  it('each dynamic import of dist/ochat.cjs is an ES module of dist/lazy/', () => {
    const imports = entryImports(read('ochat.cjs'));
    expect(imports).toEqual(expect.arrayContaining(['./lazy/interactive.js', './lazy/line-mode.js']));
    for (const specifier of imports) {
      expect(specifier).toMatch(/^\.\/lazy\/[\w-]+\.js$/);
      expect(existsSync(join(dist, specifier))).toBe(true);
    }
  });

  it('the lazy ES modules require dist/ochat.cjs through the package import #ochat, from one chunk, and never import it', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.imports['#ochat']).toBe('./dist/ochat.cjs');
    const lazyFiles = readdirSync(join(dist, 'lazy'), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.js'));
    // Required, not imported: an import of CommonJS runs Node's scanner of its exports first.
    const requiring = lazyFiles.filter((name) => read(join('lazy', name)).includes('("#ochat")'));
    expect(requiring).toHaveLength(1);
    for (const name of lazyFiles) {
      expect(
        staticImports(read(join('lazy', name))).filter((specifier) => specifier.includes('ochat')),
      ).toEqual([]);
    }
  });

  it('regular expressions with Unicode properties stay literals, parsed on first use, not as a module loads', () => {
    const files = [
      'ochat.cjs',
      ...readdirSync(join(dist, 'lazy'), { recursive: true }).map((name) => join('lazy', String(name))),
    ].filter((name) => /\.c?js$/.test(name));
    const built = files.flatMap((name) => read(name).match(/new RegExp\("[^"]*\\\\p\{/g) ?? []);
    expect(built).toEqual([]);
    // string-width's, in the one-shot, as a literal.
    expect(read('lazy/one-shot.cjs')).toContain('\\p{Spacing_Mark}/v');
  });
});

/**
 * A preload that notes, in order, each file Node reads as CommonJS (fs.readFileSync: the loader's
 * and the code cache's read), each ES module it loads (a loader hook), and the first frame (the
 * prompt's placeholder written to fd 1, by fs.writeSync or through process.stdout, which it wraps
 * as it is created so as not to create it), with the Node modules loaded by then.
 */
const TRACER = `
const fs = require('node:fs');
const log = process.env.OCHAT_LOAD_TRACE;
const note = (line) => fs.appendFileSync(log, line + '\\n');
const readFileSync = fs.readFileSync;
fs.readFileSync = function (path, ...rest) {
  if (typeof path === 'string') note('read ' + path);
  return readFileSync.call(this, path, ...rest);
};
if (process.env.OCHAT_TRACE_IMPORTS) {
  const hooks = 'import { appendFileSync } from "node:fs"; let log;'
    + ' export function initialize(data) { log = data.log; }'
    + ' export async function load(url, context, next) { appendFileSync(log, "import " + url + String.fromCharCode(10)); return next(url, context); }';
  require('node:module').register('data:text/javascript,' + encodeURIComponent(hooks), { data: { log } });
}
let drawn = false;
const sawOutput = (chunk) => {
  if (drawn || !String(chunk).includes('Type a message')) return;
  drawn = true;
  note('first frame');
  const builtins = process.moduleLoadList.filter((name) => name.startsWith('NativeModule '));
  note('builtins ' + builtins.map((name) => name.slice('NativeModule '.length)).join(' '));
};
const writeSync = fs.writeSync;
fs.writeSync = function (fd, chunk, ...rest) {
  if (fd === 1) sawOutput(chunk);
  return writeSync.call(this, fd, chunk, ...rest);
};
const stdout = Object.getOwnPropertyDescriptor(process, 'stdout');
let wrapped;
Object.defineProperty(process, 'stdout', {
  configurable: true,
  enumerable: true,
  get() {
    const stream = stdout.get.call(process);
    if (wrapped !== stream) {
      wrapped = stream;
      const write = stream.write;
      stream.write = function (chunk, ...rest) {
        sawOutput(chunk);
        return write.call(this, chunk, ...rest);
      };
    }
    return stream;
  },
});
`;

describe('what a chat loads, traced on the built bundle', () => {
  let pty: PtySession | undefined;
  const places: string[] = [];
  afterEach(async () => {
    await pty?.dispose();
    pty = undefined;
    for (const dir of places.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the chat with the tracer; the trace as files of the repository (`dist/ochat.cjs`), in order. */
  function tracedChat(args: string[], env: Record<string, string> = {}): () => string[] {
    const dir = mkdtempSync(join(tmpdir(), 'ochat-load-trace-'));
    places.push(dir);
    const tracer = join(dir, 'tracer.cjs');
    const log = join(dir, 'trace.log');
    writeFileSync(tracer, TRACER);
    writeFileSync(log, '');
    pty = spawnOchat(args, { nodeArgs: ['--require', tracer], env: { ...env, OCHAT_LOAD_TRACE: log } });
    return () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .flatMap((line) => {
          if (line === 'first frame' || line.startsWith('builtins ')) return [line];
          const [kind, where] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
          const path = kind === 'import' && where.startsWith('file:') ? fileURLToPath(where) : where;
          const inRepo = relative(root, path);
          return kind && !inRepo.startsWith('..') && !inRepo.startsWith('node_modules') ? [inRepo] : [];
        });
  }

  it('on the default Ollama host, the first frame loads bin/ochat and dist/ochat.cjs alone, and the chat never the OpenAI runtime', async () => {
    // Nothing answers at the default host here: the chat says so, after its first frame.
    const trace = tracedChat(['-m', 'llama3.2'], { OCHAT_TRACE_IMPORTS: '1' });
    await pty!.waitFor('Press Enter to try again', 20_000);
    await waitUntil('the first frame traced', () => trace().includes('first frame'));
    const loaded = trace().filter((line) => !line.startsWith('builtins '));
    const frame = loaded.indexOf('first frame');
    // Also on Node < 22.1, where bin/ochat runs the entry from its code cache.
    expect([...new Set(loaded.slice(0, frame))]).toEqual(['bin/ochat', 'dist/ochat.cjs']);
    // The chat's own modules load after it, as ES modules; the OpenAI runtime is not among them.
    expect(loaded.slice(frame)).toContain('dist/lazy/interactive.js');
    expect(loaded.filter((file) => file.includes('openai'))).toEqual([]);
    // Nor is any of its code in what loads before the frame but the three-line loader.
    const sources: string[] = JSON.parse(read('ochat.cjs.map')).sources;
    expect(sources.filter((source) => /openai|eventsource-parser/.test(source))).toEqual([
      '../src/openai/load-openai.ts',
    ]);
  });

  it('the first frame is drawn before node:tty and node:net load (process.stdin and stdout load them: ~3 ms)', async () => {
    // Without the loader hook, which loads them itself.
    const trace = tracedChat(['-m', 'llama3.2']);
    await pty!.waitFor('Press Enter to try again', 20_000);
    await waitUntil('the first frame traced', () => trace().some((line) => line.startsWith('builtins ')));
    const builtins = trace()
      .find((line) => line.startsWith('builtins '))!
      .split(' ')
      .slice(1);
    expect(builtins).toContain('fs');
    expect(builtins.filter((name) => ['tty', 'net', 'stream'].includes(name))).toEqual([]);
  });

  it('the same trace sees the OpenAI runtime load, after the first frame, at a host that is such a server', async () => {
    const emulator = await startOpenAiEmulator({
      engine: 'vllm',
      models: [{ id: 'Qwen/Qwen3-8B', window: 16384 }],
    });
    try {
      const trace = tracedChat(['--host', emulator.url], { OCHAT_TRACE_IMPORTS: '1' });
      await pty!.waitFor('max_model_len', 20_000);
      const loaded = trace();
      const frame = loaded.indexOf('first frame');
      expect(frame).toBeGreaterThan(0);
      expect(loaded.indexOf('dist/lazy/openai-runtime.js')).toBeGreaterThan(frame);
    } finally {
      await pty?.dispose();
      pty = undefined;
      await emulator.close();
    }
  });
});
