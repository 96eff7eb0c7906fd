import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Emulator, startEmulator } from '../test/support/emulator.js';
import { spawnOchat } from '../test/support/pty-session.js';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { median } from './process-stats.js';
import { buildReferences } from './reference/build-references.js';

const RUNS = 9;
const OCHAT_BIN = resolve(import.meta.dirname, '../bin/ochat');

/** Time for `node -e 0`: the floor any Node CLI starts from, on this machine, in this run. */
function nodeBaselineMs(): number {
  const start = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - start;
}

/** Time from spawn to the first frame that shows the prompt `›`, in a PTY. */
async function firstFrameMs(args: string[], options: { url: string; script?: string }): Promise<number> {
  const start = performance.now();
  const session = spawnOchat(args, { env: { OLLAMA_HOST: options.url }, script: options.script });
  try {
    await session.waitFor('›', 15_000, { settle: false });
    return performance.now() - start;
  } finally {
    await session.dispose();
  }
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

/** Time from spawning `ochat -p` to the first byte of the reply on its stdout. */
function oneShotFirstByteMs(emulator: Emulator): Promise<number> {
  emulator.enqueue({ content: 'Hello there.' });
  const home = mkdtempSync(join(tmpdir(), 'ochat-bench-'));
  const start = performance.now();
  const child = spawn(process.execPath, [OCHAT_BIN, '-m', 'bench-model', '-p', 'hi'], {
    cwd: home,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      OLLAMA_HOST: emulator.url,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolveRun, reject) => {
    let firstByte: number | undefined;
    child.stdout.once('data', () => {
      firstByte = performance.now() - start;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(home, { recursive: true, force: true });
      if (code === 0 && firstByte !== undefined) resolveRun(firstByte);
      else reject(new Error(`ochat -p exited with ${code} before printing a reply`));
    });
  });
}

/** A one-shot's first reply byte, against `2 × node -e 0 + the server's own time`. */
async function oneShotRows(emulator: Emulator, nodeMs: number): Promise<BenchRow[]> {
  const server: number[] = [];
  const oneShot: number[] = [];
  await oneShotFirstByteMs(emulator);
  for (let i = 0; i < RUNS; i++) {
    server.push(await serverFirstByteMs(emulator));
    oneShot.push(await oneShotFirstByteMs(emulator));
  }
  const limit = 2 * nodeMs + median(server);
  return [
    {
      name: "server's own time to the first reply byte (a request from the bench process)",
      value: Math.round(median(server)),
      unit: 'ms',
    },
    {
      name: 'ochat -p: exec to the first reply byte on stdout',
      value: Math.round(median(oneShot)),
      unit: 'ms',
      target: `≤ 2 × node -e 0 + server = ${Math.round(limit)} ms`,
      pass: median(oneShot) <= limit,
    },
    {
      name: 'ochat -p first byte ratio to (node -e 0 + server)',
      value: Number((median(oneShot) / (nodeMs + median(server))).toFixed(2)),
      unit: '×',
    },
  ];
}

/** Cold start to the first interactive frame, as a ratio to `node -e 0` and to a minimal Ink program. */
export const startupBench: BenchSuite = async () => {
  const emulator = await startEmulator({ models: [{ name: 'bench-model:latest' }] });
  const { inkHello } = await buildReferences();
  try {
    const node: number[] = [];
    const ink: number[] = [];
    const ochat: number[] = [];
    const ochatArgs = ['-m', 'bench-model'];
    // Warm the file cache for all three.
    nodeBaselineMs();
    await firstFrameMs([], { url: emulator.url, script: inkHello });
    await firstFrameMs(ochatArgs, { url: emulator.url });
    for (let i = 0; i < RUNS; i++) {
      node.push(nodeBaselineMs());
      ink.push(await firstFrameMs([], { url: emulator.url, script: inkHello }));
      ochat.push(await firstFrameMs(ochatArgs, { url: emulator.url }));
    }
    const ratio = median(ochat) / median(node);
    const oneShot = await oneShotRows(emulator, median(node));
    return [
      { name: 'node -e 0', value: Math.round(median(node)), unit: 'ms' },
      {
        name: 'minimal Ink program to its first frame (floor of any Ink client)',
        value: Math.round(median(ink)),
        unit: 'ms',
      },
      { name: 'ochat cold start to first interactive frame', value: Math.round(median(ochat)), unit: 'ms' },
      {
        name: 'ochat cold start ratio to node -e 0',
        value: Number(ratio.toFixed(2)),
        unit: '×',
        target: '≤ 1.5×',
        pass: ratio <= 1.5,
      },
      {
        name: 'ochat cold start ratio to the minimal Ink program',
        value: Number((median(ochat) / median(ink)).toFixed(2)),
        unit: '×',
      },
      ...oneShot,
    ];
  } finally {
    await emulator.close();
  }
};
