import { spawnSync } from 'node:child_process';
import { startEmulator } from '../test/support/emulator.js';
import { spawnOchat } from '../test/support/pty-session.js';
import type { BenchSuite } from './bench-row.js';
import { median } from './process-stats.js';
import { buildReferences } from './reference/build-references.js';

const RUNS = 9;

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
    ];
  } finally {
    await emulator.close();
  }
};
