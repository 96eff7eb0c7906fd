import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Emulator, startEmulator } from '../test/support/emulator.js';
import { type PtySession, spawnOchat } from '../test/support/pty-session.js';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { cpuTimeMs, peakRssMb } from './process-stats.js';
import { buildReferences } from './reference/build-references.js';

const MODEL = 'bench-model';

/** A config that keeps compaction out of the measurement and the window large enough. */
function benchConfig(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-bench-'));
  const file = join(dir, 'config.yml');
  writeFileSync(file, 'compaction:\n  auto: false\noptions:\n  num_ctx: 131072\n');
  return file;
}

interface StreamFigures {
  tokensPerSecond: number;
  cpuMsPer1000: number;
}

/** Streams one reply of `tokens` tokens and measures the client while it renders. */
async function streamOnce(
  emulator: Emulator,
  session: PtySession,
  tokens: number,
  tokensPerSecond: number,
  round: number,
): Promise<StreamFigures> {
  emulator.enqueue({ tokens, tokensPerSecond });
  const cpuBefore = cpuTimeMs(session.pid);
  const start = performance.now();
  session.write(`go ${round}\r`);
  await session.waitFor(`${tokens} tokens`, 120_000, { settle: false });
  const seconds = (performance.now() - start) / 1000;
  const cpu = cpuTimeMs(session.pid) - cpuBefore;
  return { tokensPerSecond: tokens / seconds, cpuMsPer1000: (cpu / tokens) * 1000 };
}

/**
 * Fills the conversation with `pairs` user/assistant exchanges of a few tokens each. Messages are
 * typed one at a time: a chunk "m\rm\r" would read as a paste with a newline, not two messages.
 */
async function fillConversation(emulator: Emulator, session: PtySession, pairs: number): Promise<void> {
  const target = emulator.chats.length + pairs;
  const deadline = Date.now() + 300_000;
  while (emulator.chats.length < target) {
    const before = emulator.chats.length;
    session.write('m\r');
    while (emulator.chats.length === before) {
      if (Date.now() > deadline) throw new Error('the conversation did not finish filling');
      await new Promise((r) => setTimeout(r, 1));
    }
  }
  await session.waitFor('Echo: m', 10_000);
}

/** CPU per 1,000 tokens of the bare official client consuming the same stream (no rendering). */
async function bareClientCpuPer1000(
  script: string,
  emulator: Emulator,
  tokens: number,
  tokensPerSecond: number,
): Promise<number> {
  emulator.enqueue({ tokens, tokensPerSecond });
  // Asynchronously: the emulator serving it runs in this process.
  const { stdout } = await promisify(execFile)(process.execPath, [script, emulator.url, MODEL]);
  return (Number(stdout.trim()) / tokens) * 1000;
}

/** Streaming throughput, CPU per 1,000 tokens and peak memory of the real CLI in a PTY. */
export const streamingBench: BenchSuite = async () => {
  const emulator = await startEmulator({
    models: [{ name: `${MODEL}:latest` }],
    tokensPerSecond: Number.POSITIVE_INFINITY,
  });
  const config = benchConfig();
  const session = spawnOchat(['-m', MODEL, '-c', config], {
    env: { OLLAMA_HOST: emulator.url },
    rows: 40,
    cols: 120,
  });
  const rows: BenchRow[] = [];
  const { ollamaClient } = await buildReferences();
  try {
    const floorFast = await bareClientCpuPer1000(ollamaClient, emulator, 20_000, Number.POSITIVE_INFINITY);
    const floorSteady = await bareClientCpuPer1000(ollamaClient, emulator, 5_000, 1_000);
    await session.waitFor('›', 15_000);
    // Warm-up (JIT, markdown renderer), then a fresh conversation: the runs below measure steady state.
    await streamOnce(emulator, session, 10_000, Number.POSITIVE_INFINITY, 0);
    session.write('/clear\r');
    await session.waitFor('New conversation.');
    const fast = await streamOnce(emulator, session, 20_000, Number.POSITIVE_INFINITY, 1);
    const steady = await streamOnce(emulator, session, 5_000, 1_000, 2);
    const streamingRss = peakRssMb(session.pid);
    rows.push(
      {
        name: 'stream 20,000 tokens, emulator at full speed: tokens rendered/s',
        value: Math.round(fast.tokensPerSecond),
        unit: 'tokens/s',
        target: '≥ 10,000',
        pass: fast.tokensPerSecond >= 10_000,
      },
      {
        name: 'CPU per 1,000 tokens at full speed',
        value: Number(fast.cpuMsPer1000.toFixed(1)),
        unit: 'ms',
        target: '≤ 40',
        pass: fast.cpuMsPer1000 <= 40,
      },
      {
        name: 'CPU per 1,000 tokens at 1,000 tokens/s',
        value: Number(steady.cpuMsPer1000.toFixed(1)),
        unit: 'ms',
        target: '≤ 40',
        pass: steady.cpuMsPer1000 <= 40,
      },
      {
        name: 'bare official client, no rendering: CPU per 1,000 tokens at full speed / at 1,000 tokens/s',
        value: Number(floorFast.toFixed(1)),
        unit: `ms / ${floorSteady.toFixed(1)} ms`,
      },
      {
        name: 'ochat CPU per token as a ratio to the bare client: full speed / 1,000 tokens/s',
        value: Number((fast.cpuMsPer1000 / floorFast).toFixed(2)),
        unit: `× / ${(steady.cpuMsPer1000 / floorSteady).toFixed(2)}×`,
      },
    );
    await fillConversation(emulator, session, 1_000);
    // One token more than before, so that the status line's count tells this reply apart.
    const loaded = await streamOnce(emulator, session, 20_001, Number.POSITIVE_INFINITY, 3);
    const growth = loaded.cpuMsPer1000 / fast.cpuMsPer1000 - 1;
    rows.push(
      {
        name: 'CPU per 1,000 tokens with 2,000 messages on screen',
        value: Number(loaded.cpuMsPer1000.toFixed(1)),
        unit: 'ms',
      },
      {
        name: 'per-token cost, 2,000 messages vs empty',
        value: Number((growth * 100).toFixed(1)),
        unit: '%',
        target: '≤ +10%',
        pass: growth <= 0.1,
      },
    );
    rows.push({
      name: 'peak RSS of the client while streaming (warm-up, 20,000 and 5,000 tokens)',
      value: Math.round(streamingRss),
      unit: 'MB',
      target: '≤ 150',
      pass: streamingRss <= 150,
    });
    const rss = peakRssMb(session.pid);
    rows.push({
      name: 'peak RSS after 1,000 more exchanges and another 20,000 tokens (V8 collects lazily; not a target)',
      value: Math.round(rss),
      unit: 'MB',
    });
    return rows;
  } finally {
    await session.dispose();
    await emulator.close();
  }
};
