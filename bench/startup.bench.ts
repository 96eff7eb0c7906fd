import { spawnSync } from 'node:child_process';
import { startEmulator } from '../test/support/emulator.js';
import { spawnOchat } from '../test/support/pty-session.js';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { median } from './process-stats.js';

const RUNS = 7;

/** Time for `node -e 0`: the floor any Node CLI starts from, on this machine, in this run. */
function nodeBaselineMs(): number {
  const start = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - start;
}

/** Time from spawn to the first interactive frame (the prompt is drawn), in a PTY. */
async function firstFrameMs(url: string): Promise<number> {
  const start = performance.now();
  const session = spawnOchat(['-m', 'bench-model'], { env: { OLLAMA_HOST: url } });
  try {
    await session.waitFor('›', 15_000);
    return performance.now() - start;
  } finally {
    session.dispose();
  }
}

/** Cold start to the first interactive frame, as a ratio to `node -e 0`. */
export const startupBench: BenchSuite = async () => {
  const emulator = await startEmulator({ models: [{ name: 'bench-model:latest' }] });
  try {
    const node: number[] = [];
    const ochat: number[] = [];
    nodeBaselineMs(); // warm the file cache
    await firstFrameMs(emulator.url);
    for (let i = 0; i < RUNS; i++) {
      node.push(nodeBaselineMs());
      ochat.push(await firstFrameMs(emulator.url));
    }
    const ratio = median(ochat) / median(node);
    const rows: BenchRow[] = [
      { name: 'node -e 0', value: Math.round(median(node)), unit: 'ms' },
      { name: 'cold start to first interactive frame', value: Math.round(median(ochat)), unit: 'ms' },
      {
        name: 'cold start ratio to node -e 0',
        value: Number(ratio.toFixed(2)),
        unit: '×',
        target: '≤ 2.0×',
        pass: ratio <= 2,
      },
    ];
    return rows;
  } finally {
    await emulator.close();
  }
};
