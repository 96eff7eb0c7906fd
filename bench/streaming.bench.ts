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

/**
 * The shape of a benchmark reply. `plain`: the emulator's filler prose (a line break every 12
 * tokens, a paragraph break every 48). `short paragraphs`: a paragraph break every 12 tokens,
 * as models write (short paragraphs, list items, code lines): each one a markdown block.
 */
type ReplyShape = 'plain' | 'short paragraphs';

// 46 characters and a blank line: one markdown block of 12 emulator tokens (4 characters each).
const SHORT_PARAGRAPH = 'The **old** fox ran far, sat by a `big` oak.  \n\n';

/** `tokens` emulator tokens of short paragraphs with some inline markdown. */
function shortParagraphs(tokens: number): string {
  return SHORT_PARAGRAPH.repeat(Math.ceil(tokens / 12)).slice(0, tokens * 4);
}

/** The reply to enqueue for a shape. */
function replyOf(shape: ReplyShape, tokens: number, tokensPerSecond: number) {
  return shape === 'plain'
    ? { tokens, tokensPerSecond }
    : { content: shortParagraphs(tokens), tokensPerSecond };
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
  shape: ReplyShape = 'plain',
): Promise<StreamFigures> {
  emulator.enqueue(replyOf(shape, tokens, tokensPerSecond));
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

/**
 * CPU per 1,000 tokens of the bare official client consuming the same streams (no rendering), one
 * figure per reply: `replies` replies of `tokens` tokens at `tokensPerSecond`, asked in one
 * process after `warmUpTokens` at full speed (0: none), as ochat asks its own.
 */
async function bareClientCpuPer1000(
  script: string,
  emulator: Emulator,
  { tokens, tokensPerSecond, replies = 1, warmUpTokens = 0 }: BareClientRun,
): Promise<number[]> {
  if (warmUpTokens > 0) emulator.enqueue({ tokens: warmUpTokens, tokensPerSecond: Number.POSITIVE_INFINITY });
  for (let reply = 0; reply < replies; reply++) emulator.enqueue({ tokens, tokensPerSecond });
  const asked = replies + (warmUpTokens > 0 ? 1 : 0);
  // Asynchronously: the emulator serving it runs in this process.
  const { stdout } = await promisify(execFile)(process.execPath, [
    script,
    emulator.url,
    MODEL,
    String(asked),
  ]);
  const cpuMs = stdout.trim().split(' ').map(Number);
  return cpuMs.slice(asked - replies).map((ms) => (ms / tokens) * 1000);
}

interface BareClientRun {
  tokens: number;
  tokensPerSecond: number;
  replies?: number;
  warmUpTokens?: number;
}

/** Replies streamed at a steady 1,000 tokens/s, one after the other, by ochat and by the bare client. */
const STEADY_REPLIES = 4;

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

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
    const [floorFast] = await bareClientCpuPer1000(ollamaClient, emulator, {
      tokens: 20_000,
      tokensPerSecond: Number.POSITIVE_INFINITY,
    });
    const floorSteady = await bareClientCpuPer1000(ollamaClient, emulator, {
      tokens: 5_000,
      tokensPerSecond: 1_000,
      // ochat streams its plain replies, then its short-paragraph ones: the same sequence.
      replies: 2 * STEADY_REPLIES,
      warmUpTokens: 20_000,
    });
    await session.waitFor('›', 15_000);
    // Warm-up (JIT, markdown renderer) in both shapes, then a fresh conversation: the runs below
    // measure steady state. Every run has its own token count: the status line's count tells
    // the end of that reply apart from the earlier ones still on screen.
    await streamOnce(emulator, session, 10_000, Number.POSITIVE_INFINITY, 0);
    await streamOnce(emulator, session, 6_000, Number.POSITIVE_INFINITY, 0, 'short paragraphs');
    session.write('/clear\r');
    await session.waitFor('New conversation.');
    const fast = await streamOnce(emulator, session, 20_000, Number.POSITIVE_INFINITY, 1);
    const fastShort = await streamOnce(
      emulator,
      session,
      20_004,
      Number.POSITIVE_INFINITY,
      2,
      'short paragraphs',
    );
    // Each reply has its own token count (and round), so that its end is told apart on screen.
    const steadyReplies = async (shape: ReplyShape, firstRound: number, tokens: number) => {
      const figures: number[] = [];
      for (let reply = 0; reply < STEADY_REPLIES; reply++) {
        const round = firstRound + reply;
        figures.push((await streamOnce(emulator, session, tokens + reply, 1_000, round, shape)).cpuMsPer1000);
      }
      return figures;
    };
    const steady = await steadyReplies('plain', 3, 5_000);
    const steadyShort = await steadyReplies('short paragraphs', 3 + STEADY_REPLIES, 5_010);
    const streamingRss = peakRssMb(session.pid);
    const cpuRow = (shape: ReplyShape, figures: StreamFigures): BenchRow => ({
      name: `CPU per 1,000 tokens at full speed, ${shape}`,
      value: Number(figures.cpuMsPer1000.toFixed(1)),
      unit: 'ms',
      target: '≤ 15',
      pass: figures.cpuMsPer1000 <= 15,
    });
    // The first steady reply of a shape, and the median of the later ones (V8 has optimised more
    // by then, on both sides): each against the bare client's replies at the same places.
    const steadyRows = (
      shape: ReplyShape,
      figures: readonly number[],
      floors: readonly number[],
    ): BenchRow[] => {
      const first = figures[0] / floors[0];
      const later = median(figures.slice(1)) / median(floors.slice(1));
      return [
        {
          name: `CPU per 1,000 tokens at 1,000 tokens/s, ${shape}, first reply of the shape: ${figures[0].toFixed(1)} ms vs the bare client's ${floors[0].toFixed(1)} ms`,
          value: Number(first.toFixed(2)),
          unit: '×',
          target: '≤ 1.2×',
          pass: first <= 1.2,
        },
        {
          name: `CPU per 1,000 tokens at 1,000 tokens/s, ${shape}, median of the next ${STEADY_REPLIES - 1} replies: ${median(figures.slice(1)).toFixed(1)} ms vs the bare client's ${median(floors.slice(1)).toFixed(1)} ms`,
          value: Number(later.toFixed(2)),
          unit: '×',
          target: '≤ 1.2×',
          pass: later <= 1.2,
        },
      ];
    };
    rows.push(
      {
        name: 'stream 20,000 tokens, emulator at full speed: tokens rendered/s (plain / short paragraphs)',
        value: Math.round(fast.tokensPerSecond),
        unit: `tokens/s / ${Math.round(fastShort.tokensPerSecond)} tokens/s`,
        target: '≥ 10,000',
        pass: Math.min(fast.tokensPerSecond, fastShort.tokensPerSecond) >= 10_000,
      },
      cpuRow('plain', fast),
      cpuRow('short paragraphs', fastShort),
      {
        name: 'bare official client, no rendering: CPU per 1,000 tokens at full speed / at 1,000 tokens/s, each reply',
        value: Number(floorFast.toFixed(1)),
        unit: `ms / ${floorSteady.map((ms) => ms.toFixed(1)).join(', ')} ms`,
      },
      {
        name: 'ochat CPU per token at full speed as a ratio to the bare client: plain / short paragraphs',
        value: Number((fast.cpuMsPer1000 / floorFast).toFixed(2)),
        unit: `× / ${(fastShort.cpuMsPer1000 / floorFast).toFixed(2)}×`,
      },
      ...steadyRows('plain', steady, floorSteady.slice(0, STEADY_REPLIES)),
      ...steadyRows('short paragraphs', steadyShort, floorSteady.slice(STEADY_REPLIES)),
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
      name: 'peak RSS of the client while streaming (warm-ups, then 20,000 tokens and four replies of 5,000 of each shape)',
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
