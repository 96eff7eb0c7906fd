import { spawn as spawnChild } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn as spawnPty } from '@lydell/node-pty';
import { type Emulator, startEmulator } from '../test/support/emulator.js';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { median, medianSpread } from './process-stats.js';
import { buildReferences } from './reference/build-references.js';

// Start-up is a few tens of milliseconds, and a busy machine moves it by as much: every figure of
// a comparison is measured by the same harness, in runs interleaved with its reference's.
const RUNS = 21;
export const OCHAT_BIN = resolve(import.meta.dirname, '../bin/ochat');

/**
 * Where every run finds what ochat keeps to start faster (a parsed config file, compiled code), as
 * in the home of anyone who ran ochat before; like V8's compile cache in the temporary directory,
 * it outlives the bench, and the unmeasured first runs fill it.
 */
const CACHE_HOME = join(tmpdir(), 'ochat-bench-cache');

/** The environment of a run whose home is `home`. */
function envOf(home: string, url: string, cacheHome = CACHE_HOME): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    TERM: 'xterm-256color',
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: cacheHome,
    OLLAMA_HOST: url,
  };
}

/**
 * A fresh home per run (no run reads another's state files), made before the clock starts; or
 * `home`, kept, for runs that start where an earlier one left off, with its own cache (ochat
 * keeps one parsed config file: two kept homes sharing a cache would evict each other's).
 */
function withHome<T>(
  url: string,
  home: string | undefined,
  run: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (home) return run(envOf(home, url, join(home, 'cache')));
  const fresh = mkdtempSync(join(tmpdir(), 'ochat-bench-'));
  return run(envOf(fresh, url)).finally(() => rmSync(fresh, { recursive: true, force: true }));
}

/**
 * A home with `config` (default: config.example.yml) as the config file. Runs in it start where
 * the one before left off: after the first, what ochat parsed of the file is kept (in
 * `CACHE_HOME`), as for anyone who uses one.
 */
export function homeWithConfig(config?: string): string {
  const home = mkdtempSync(join(tmpdir(), 'ochat-bench-config-'));
  mkdirSync(join(home, 'config', 'ochat'), { recursive: true });
  const file = join(home, 'config', 'ochat', 'config.yml');
  if (config === undefined) copyFileSync(resolve(import.meta.dirname, '../config.example.yml'), file);
  else writeFileSync(file, config);
  return home;
}

/**
 * Time from exec on a 100×30 pseudo-terminal to the first output that holds `marker` (the prompt
 * `›` drawn), or to the exit when there is no marker (`node -e 0`, the floor any Node CLI starts
 * from). No `CI` variable: it would change what chalk and Ink draw.
 */
export function ptyMs(
  argv: string[],
  url: string,
  marker?: string,
  home?: string,
  { quit = false }: { quit?: boolean } = {},
): Promise<number> {
  return withHome(
    url,
    home,
    (env) =>
      new Promise<number>((resolveRun, reject) => {
        const start = performance.now();
        const pty = spawnPty(process.execPath, argv, {
          name: 'xterm-256color',
          cols: 100,
          rows: 30,
          cwd: env.HOME,
          env,
        });
        let output = '';
        let done = false;
        let drawnAt: number | undefined;
        const finish = (ms: number) => {
          if (done) return;
          done = true;
          resolveRun(ms);
          if (marker && !quit) pty.kill();
        };
        if (marker) {
          pty.onData((data) => {
            output += data;
            if (drawnAt !== undefined || !output.includes(marker)) return;
            drawnAt = performance.now() - start;
            // Typed at once, read once the chat is up: it ends as a user's does, and writes its
            // code caches as it exits (a killed run writes none).
            if (quit) pty.write('/quit\r');
            else finish(drawnAt);
          });
        }
        pty.onExit(() => {
          if (quit && drawnAt !== undefined) finish(drawnAt);
          if (!marker) finish(performance.now() - start);
          else if (!done) reject(new Error(`${argv.join(' ')} exited before drawing ${marker}: ${output}`));
        });
      }),
  );
}

/**
 * Time from exec with piped stdio to the first byte on stdout, or to the exit when `firstByte` is
 * false (`node -e 0` as the one-shot's reference: the same kind of spawn).
 */
function pipedMs(argv: string[], url: string, firstByte: boolean): Promise<number> {
  return withHome(
    url,
    undefined,
    (env) =>
      new Promise<number>((resolveRun, reject) => {
        const start = performance.now();
        const child = spawnChild(process.execPath, argv, {
          cwd: env.HOME,
          env,
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let at: number | undefined;
        child.stdout.once('data', () => {
          at ??= performance.now() - start;
        });
        child.on('error', reject);
        child.on('exit', () => {
          if (!firstByte) at = performance.now() - start;
        });
        child.on('close', (code) => {
          if (code === 0 && at !== undefined) resolveRun(at);
          else
            reject(new Error(`${argv.join(' ')} exited with ${code}${firstByte ? ' before printing' : ''}`));
        });
      }),
  );
}

/**
 * A preload (`node --require`) that writes the process's CPU time (user and system, all threads,
 * in ms) to $OCHAT_BENCH_CPU_FILE at its first write to stdout (with $OCHAT_BENCH_CPU_MARKER, the
 * first that holds it; also by fs.writeSync to fd 1, as the first frame is drawn), or at its exit
 * when it wrote nothing (`node -e 0`). It wraps stdout's getter instead of reading process.stdout,
 * which would create the stream before the program does. Both sides of a ratio load it, so its own
 * cost cancels.
 */
const CPU_PROBE = `const fs = require('node:fs');
const { writeFileSync } = fs;
const marker = process.env.OCHAT_BENCH_CPU_MARKER;
let noted = false;
const note = (chunk) => {
  if (noted) return;
  if (marker && chunk !== undefined && !String(chunk).includes(marker)) return;
  noted = true;
  const used = process.cpuUsage();
  writeFileSync(process.env.OCHAT_BENCH_CPU_FILE, String((used.user + used.system) / 1000));
};
const stdout = Object.getOwnPropertyDescriptor(process, 'stdout');
Object.defineProperty(process, 'stdout', {
  configurable: true,
  enumerable: stdout.enumerable,
  get() {
    const stream = stdout.get.call(process);
    if (!stream.cpuProbed) {
      stream.cpuProbed = true;
      const write = stream.write;
      stream.write = function (...args) {
        note(args[0]);
        return write.apply(this, args);
      };
    }
    return stream;
  },
});
const writeSync = fs.writeSync;
fs.writeSync = function (fd, ...args) {
  if (fd === 1) note(args[0]);
  return writeSync.call(this, fd, ...args);
};
process.on('exit', () => note());
`;

/**
 * CPU time, not wall time, from exec with piped stdio to the first byte on stdout (or to the
 * exit): what a loaded machine changes least, as the wait for a core is not counted.
 */
function pipedCpuMs(argv: string[], url: string): Promise<number> {
  return withHome(
    url,
    undefined,
    (env) =>
      new Promise<number>((resolveRun, reject) => {
        const probe = join(env.HOME, 'cpu-probe.cjs');
        const file = join(env.HOME, 'cpu.txt');
        writeFileSync(probe, CPU_PROBE);
        const child = spawnChild(process.execPath, ['--require', probe, ...argv], {
          cwd: env.HOME,
          env: { ...env, OCHAT_BENCH_CPU_FILE: file },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        child.stdout.resume();
        child.on('error', reject);
        child.on('close', (code) => {
          if (code === 0) resolveRun(Number(readFileSync(file, 'utf8')));
          else reject(new Error(`${argv.join(' ')} exited with ${code}`));
        });
      }),
  );
}

/**
 * CPU time from exec on a 100×30 pseudo-terminal to the write that holds `marker` (the first
 * frame), or to the exit without one (`node -e 0`), by the preload above.
 */
function ptyCpuMs(argv: string[], url: string, marker?: string): Promise<number> {
  return withHome(
    url,
    undefined,
    (env) =>
      new Promise<number>((resolveRun, reject) => {
        const probe = join(env.HOME, 'cpu-probe.cjs');
        const file = join(env.HOME, 'cpu.txt');
        writeFileSync(probe, CPU_PROBE);
        const pty = spawnPty(process.execPath, ['--require', probe, ...argv], {
          name: 'xterm-256color',
          cols: 100,
          rows: 30,
          cwd: env.HOME,
          env: { ...env, OCHAT_BENCH_CPU_FILE: file, ...(marker ? { OCHAT_BENCH_CPU_MARKER: marker } : {}) },
        });
        let output = '';
        let done = false;
        // The probe writes the file before the write that holds the marker.
        const finish = () => {
          if (done) return;
          done = true;
          resolveRun(Number(readFileSync(file, 'utf8')));
          if (marker) pty.kill();
        };
        if (marker) {
          pty.onData((data) => {
            output += data;
            if (output.includes(marker)) finish();
          });
        }
        pty.onExit(() => {
          if (!marker) finish();
          else if (!done) reject(new Error(`${argv.join(' ')} exited before drawing ${marker}: ${output}`));
        });
      }),
  );
}

/** The server's own time to the first byte of a reply: a request from this process, no start-up. */
async function serverFirstByteMs(emulator: Emulator): Promise<number> {
  emulator.enqueue({ content: 'Hello there.' });
  const start = performance.now();
  const response = await fetch(`${emulator.url}/api/chat`, {
    method: 'POST',
    body: JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'hi' }], stream: true }),
  });
  const reader = response.body!.getReader();
  await reader.read();
  const elapsed = performance.now() - start;
  await reader.cancel();
  return elapsed;
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const ratio = (value: number) => Number(value.toFixed(2));

/** Cold start to the first interactive frame, and a one-shot's first reply byte, against `node -e 0`. */
export const startupBench: BenchSuite = async (): Promise<BenchRow[]> => {
  const emulator = await startEmulator({ models: [{ name: 'bench-model:latest' }] });
  const { inkHello } = await buildReferences();
  const { url } = emulator;
  const oneShot = () => {
    emulator.enqueue({ content: 'Hello there.' });
    return pipedMs([OCHAT_BIN, '-m', 'bench-model', '-p', 'hi'], url, true);
  };
  const oneShotCpu = () => {
    emulator.enqueue({ content: 'Hello there.' });
    return pipedCpuMs([OCHAT_BIN, '-m', 'bench-model', '-p', 'hi'], url);
  };
  try {
    const runs = {
      nodePty: [],
      ink: [],
      ochat: [],
      withConfig: [],
      nodePiped: [],
      server: [],
      oneShot: [],
      nodeCpu: [],
      oneShotCpu: [],
      nodePtyCpu: [],
      frameCpu: [],
    } as Record<string, number[]>;
    // Warm the file cache and the code caches (Node's, ochat's) once, unmeasured (and, with the
    // config file, what ochat keeps of it).
    const configHome = homeWithConfig();
    await ptyMs([inkHello], url, '›');
    await ptyMs([OCHAT_BIN, '-m', 'bench-model'], url, '›', undefined, { quit: true });
    await ptyMs([OCHAT_BIN, '-m', 'bench-model'], url, '›', configHome, { quit: true });
    await oneShot();
    for (let i = 0; i < RUNS; i++) {
      runs.nodePty.push(await ptyMs(['-e', '0'], url));
      runs.ink.push(await ptyMs([inkHello], url, '›'));
      runs.ochat.push(await ptyMs([OCHAT_BIN, '-m', 'bench-model'], url, '›'));
      runs.withConfig.push(await ptyMs([OCHAT_BIN, '-m', 'bench-model'], url, '›', configHome));
      runs.nodePiped.push(await pipedMs(['-e', '0'], url, false));
      runs.server.push(await serverFirstByteMs(emulator));
      runs.oneShot.push(await oneShot());
      runs.nodeCpu.push(await pipedCpuMs(['-e', '0'], url));
      runs.oneShotCpu.push(await oneShotCpu());
      runs.nodePtyCpu.push(await ptyCpuMs(['-e', '0'], url));
      runs.frameCpu.push(await ptyCpuMs([OCHAT_BIN, '-m', 'bench-model'], url, '›'));
    }
    rmSync(configHome, { recursive: true, force: true });
    const [nodePty, ink, ochat, withConfig, nodePiped, server, firstByte] = [
      runs.nodePty,
      runs.ink,
      runs.ochat,
      runs.withConfig,
      runs.nodePiped,
      runs.server,
      runs.oneShot,
    ].map(median);
    // Ratios run by run (each run beside its own reference, interleaved): their median, min and max.
    const perRun = (values: number[], reference: number[], less: number[] = []) =>
      values.map((v, i) => (v - (less[i] ?? 0)) / reference[i]);
    const frameRatios = medianSpread(perRun(runs.ochat, runs.nodePty), ratio);
    const withConfigRatios = medianSpread(perRun(runs.withConfig, runs.nodePty), ratio);
    // The one-shot's own part: its first byte less the server's time to answer.
    const oneShotRatios = medianSpread(perRun(runs.oneShot, runs.nodePiped, runs.server), ratio);
    const oneShotCpuRatios = medianSpread(perRun(runs.oneShotCpu, runs.nodeCpu), ratio);
    const frameCpuRatios = medianSpread(perRun(runs.frameCpu, runs.nodePtyCpu), ratio);
    return [
      { name: 'node -e 0 on a pseudo-terminal, exec to exit', value: round(nodePty), unit: 'ms' },
      {
        name: 'minimal Ink program to its first frame (floor of any Ink client)',
        value: round(ink),
        unit: 'ms',
      },
      { name: 'ochat cold start to first interactive frame', value: round(ochat), unit: 'ms' },
      {
        name: 'ochat cold start to first interactive frame, ratio to node -e 0',
        ...frameRatios,
        unit: '×',
        target: '≤ 1.1×',
        pass: frameRatios.value <= 1.1,
      },
      {
        name: 'node -e 0 on a pseudo-terminal, CPU time to exit',
        ...medianSpread(runs.nodePtyCpu, round),
        unit: 'ms',
      },
      {
        name: 'ochat: CPU time to the first interactive frame',
        ...medianSpread(runs.frameCpu, round),
        unit: 'ms',
      },
      {
        name: 'ochat first frame CPU time, ratio to node -e 0 (the wall ratio without the wait for a core)',
        ...frameCpuRatios,
        unit: '×',
      },
      { name: 'ochat cold start ratio to the minimal Ink program', value: ratio(ochat / ink), unit: '×' },
      {
        name: 'ochat cold start to first interactive frame with a config file (config.example.yml, started before)',
        value: round(withConfig),
        unit: 'ms',
      },
      {
        name: 'ochat cold start with a config file, ratio to node -e 0',
        ...withConfigRatios,
        unit: '×',
        target: '≤ 1.1×',
        pass: withConfigRatios.value <= 1.1,
      },
      { name: 'node -e 0 with piped stdio, exec to exit', value: round(nodePiped), unit: 'ms' },
      {
        name: "server's own time to the first reply byte (a request from the bench process)",
        value: round(server),
        unit: 'ms',
      },
      {
        name: 'ochat -p: exec to the first reply byte on stdout',
        value: round(firstByte),
        unit: 'ms',
        target: `≤ 2 × node -e 0 + server = ${round(2 * nodePiped + server)} ms`,
        pass: firstByte <= 2 * nodePiped + server,
      },
      {
        name: "ochat -p first byte less the server's time, ratio to node -e 0",
        ...oneShotRatios,
        unit: '×',
        target: '≤ 1.5×',
        pass: oneShotRatios.value <= 1.5,
      },
      {
        name: 'node -e 0 with piped stdio, CPU time to exit',
        ...medianSpread(runs.nodeCpu, round),
        unit: 'ms',
      },
      {
        name: 'ochat -p: CPU time to the first reply byte on stdout',
        ...medianSpread(runs.oneShotCpu, round),
        unit: 'ms',
      },
      {
        name: 'ochat -p CPU time to the first byte, ratio to node -e 0 (the wall ratio without the wait for a core)',
        ...oneShotCpuRatios,
        unit: '×',
      },
    ];
  } finally {
    await emulator.close();
  }
};
