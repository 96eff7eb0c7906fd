import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompactionRecord } from '../src/conversation/compaction-record.js';
import type { Message } from '../src/conversation/message.js';
import { SessionStore } from '../src/sessions/session-store.js';
import { startEmulator } from '../test/support/emulator.js';
import { spawnOchat } from '../test/support/pty-session.js';
import type { BenchSuite } from './bench-row.js';
import { median, peakRssMb } from './process-stats.js';

const RUNS = 5;
const MESSAGES = 5000;
const COMPACTIONS = 10;

/** A session of `MESSAGES` messages with `COMPACTIONS` records, written as the chat would; returns append times. */
function writeLongSession(store: SessionStore): { id: string; appendMs: number[] } {
  const at = new Date('2026-12-03T06:00:00Z');
  const session = store.create(
    { created: at.toISOString(), cwd: '/bench', model: 'bench-model', options: {} },
    at,
  );
  const writer = session.writer!;
  writer.append({ type: 'setting', at: at.toISOString(), key: 'model', value: 'bench-model' });
  writer.append({ type: 'setting', at: at.toISOString(), key: 'num_ctx', value: 8192 });
  const appendMs: number[] = [];
  const every = Math.floor(MESSAGES / (COMPACTIONS + 1));
  for (let i = 0; i < MESSAGES; i++) {
    const user = i % 2 === 0;
    const message: Message = {
      id: i + 1,
      turn: Math.floor(i / 2) + 1,
      role: user ? 'user' : 'assistant',
      content: user
        ? `Question ${i}: how does part ${i} of the plan work?`
        : `Part ${i} works like this. ${'Some explanation with details and numbers 42. '.repeat(8)}`,
      at: at.toISOString(),
    };
    const start = performance.now();
    writer.append({ type: 'message', message });
    appendMs.push(performance.now() - start);
    // The chat saves the meter's state after every reply.
    if (!user)
      writer.append({
        type: 'setting',
        at: at.toISOString(),
        key: 'meter',
        value: { charsPerToken: 3.9, anchor: { tokens: 4000 + i, transcriptLength: i + 1, recordCount: 0 } },
      });
    if (i > 0 && i % every === 0 && i / every <= COMPACTIONS && !user) {
      const record: CompactionRecord = {
        upto: i + 1,
        narrative: `Summary of the first ${i + 1} messages. ${'Facts and decisions. '.repeat(40)}`,
        toolEntries: [],
        model: 'bench-model',
        at: at.toISOString(),
        tokensBefore: 7000,
        tokensAfter: 1500,
      };
      writer.append({ type: 'compaction', record });
    }
  }
  session.close();
  return { id: session.parsed.header.id, appendMs };
}

/**
 * Sessions: appending a message (median, the chat's own writer), and resuming a 5,000-message session
 * with 10 compaction records to the first interactive frame (conversation shown, model connected)
 * against the cold start of an empty session to the same point; peak RSS of the resumed process.
 */
export const sessionsBench: BenchSuite = async () => {
  const home = mkdtempSync(join(tmpdir(), 'ochat-bench-sessions-'));
  const sessionsDir = join(home, 'data', 'ochat', 'sessions');
  mkdirSync(sessionsDir, { recursive: true });
  const emulator = await startEmulator({ models: [{ name: 'bench-model:latest' }] });
  try {
    const { id, appendMs } = writeLongSession(new SessionStore(sessionsDir));
    const empty: number[] = [];
    const resumed: number[] = [];
    const rss: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const coldHome = mkdtempSync(join(tmpdir(), 'ochat-bench-cold-'));
      let start = performance.now();
      const cold = spawnOchat(['-m', 'bench-model'], { home: coldHome, env: { OLLAMA_HOST: emulator.url } });
      await cold.waitFor('num_ctx', 15_000, { settle: false });
      empty.push(performance.now() - start);
      await cold.dispose();
      rmSync(coldHome, { recursive: true, force: true });

      start = performance.now();
      const resume = spawnOchat(['-r', id], { home, env: { OLLAMA_HOST: emulator.url } });
      await resume.waitFor(/Resumed session[\s\S]*num_ctx/, 30_000, { settle: false });
      resumed.push(performance.now() - start);
      rss.push(peakRssMb(resume.pid));
      await resume.dispose();
    }
    const appendMedian = median(appendMs);
    const ratio = median(resumed) / median(empty);
    const peak = Math.max(...rss);
    return [
      {
        name: 'append one message (median)',
        value: Number(appendMedian.toFixed(3)),
        unit: 'ms',
        target: '≤ 1 ms',
        pass: appendMedian <= 1,
      },
      {
        name: 'cold start, empty session, to the connected frame',
        value: Math.round(median(empty)),
        unit: 'ms',
      },
      {
        name: `resume ${MESSAGES} messages + ${COMPACTIONS} compactions, to the connected frame`,
        value: Math.round(median(resumed)),
        unit: 'ms',
      },
      {
        name: 'resume / cold start',
        value: Number(ratio.toFixed(2)),
        unit: '×',
        target: '≤ 2×',
        pass: ratio <= 2,
      },
      {
        name: 'peak RSS while resuming',
        value: Math.round(peak),
        unit: 'MB',
        target: '≤ 200 MB',
        pass: peak <= 200,
      },
    ];
  } finally {
    await emulator.close();
    rmSync(home, { recursive: true, force: true });
  }
};
