import type { Budgets } from '../src/compaction/budgets.js';
import { chunkCapacity, chunkLines } from '../src/compaction/chunking.js';
import { compactConversation } from '../src/compaction/compactor.js';
import { buildModelView, toWireMessage } from '../src/compaction/model-view.js';
import { planCompaction } from '../src/compaction/plan.js';
import { buildSummarizerRequest, renderSliceLines } from '../src/compaction/summarizer-prompt.js';
import { toolLogRoom } from '../src/compaction/summary.js';
import { collectToolEntries, mergeToolEntries } from '../src/compaction/tool-entries.js';
import type { CompactionRecord } from '../src/conversation/compaction-record.js';
import type { Message } from '../src/conversation/message.js';
import {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTokens,
} from '../src/conversation/token-estimate.js';
import { OllamaClient } from '../src/ollama/client.js';
import { startEmulator } from '../test/support/emulator.js';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { median, medianSpread } from './process-stats.js';

const MESSAGES = 10_000;
// ≥ 15 runs: the spread is itself a finding on a machine others load.
const RUNS = 15;

/**
 * A transcript of `count` messages: user → assistant tool call → tool result → assistant reply,
 * with flat strings as JSON parsing (session files, the Ollama stream) produces them.
 */
function syntheticTranscript(count: number): Message[] {
  return JSON.parse(JSON.stringify(builtTranscript(count)));
}

/** Built in memory (strings are ropes); `syntheticTranscript` flattens them as a parsed session would be. */
function builtTranscript(count: number): Message[] {
  const at = '2026-01-01T00:00:00.000Z';
  const out: Message[] = [];
  for (let turn = 0; out.length < count; turn++) {
    const base = { turn, at };
    out.push({
      ...base,
      id: out.length,
      role: 'user',
      content: `Question ${turn}: ${'why does it fail? '.repeat(20)}`,
    });
    out.push({
      ...base,
      id: out.length,
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: 'read_file', arguments: { path: `src/file${turn}.ts` } } }],
    });
    out.push({
      ...base,
      id: out.length,
      role: 'tool',
      tool_name: 'read_file',
      content: 'const x = 1;\n'.repeat(150),
      tool_summary: `read src/file${turn}.ts (150 lines)`,
    });
    out.push({
      ...base,
      id: out.length,
      role: 'assistant',
      content: `Answer ${turn}: ${'Because the value is stale. '.repeat(25)}`,
      thinking: 'reasoning '.repeat(40),
    });
  }
  return out.slice(0, count);
}

async function timeMedian(run: () => unknown | Promise<unknown>): Promise<number> {
  return median(await timeRuns(run));
}

/** The times of RUNS runs of `run`, after one unmeasured warm-up (JIT and caches). */
async function timeRuns(run: () => unknown | Promise<unknown>): Promise<number[]> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Time of one summarizer request that returns `narrative`, through the real client, at the emulator's default speed. */
async function summarizerCallMs(narrative: string): Promise<number> {
  const emulator = await startEmulator({ models: [{ name: 'bench:latest' }] });
  try {
    const client = new OllamaClient({ host: emulator.url });
    const request = {
      model: 'bench',
      messages: [{ role: 'user' as const, content: 'Summarize.' }],
      options: { num_ctx: 32_768 },
    };
    emulator.enqueue({ content: narrative });
    await client.chat(request); // warm-up: connection and JIT
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      emulator.enqueue({ content: narrative });
      const start = performance.now();
      await client.chat(request);
      times.push(performance.now() - start);
    }
    return median(times);
  } finally {
    await emulator.close();
  }
}

/**
 * A 40-message chat at num_ctx 2048 (the case): short questions and replies, a 2,000-line
 * paste and read_file outputs of 20 kB, compacted once with a summarizer that answers at once.
 */
async function smallWindowCompaction(): Promise<{ calls: number; ms: number }> {
  const at = '2026-01-01T00:00:00.000Z';
  const transcript: Message[] = [];
  for (let turn = 0; transcript.length < 40; turn++) {
    const base = { turn, at };
    const paste = turn === 3 ? `\n${'2026-01-01 12:00:00 INFO request served in 12 ms\n'.repeat(1400)}` : '';
    transcript.push({ ...base, id: transcript.length, role: 'user', content: `Question ${turn}${paste}` });
    if (turn % 4 === 1) {
      transcript.push({
        ...base,
        id: transcript.length,
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'read_file', arguments: { path: `f${turn}.txt` } } }],
      });
      transcript.push({
        ...base,
        id: transcript.length,
        role: 'tool',
        tool_name: 'read_file',
        content: 'some line of a file\n'.repeat(1000),
        tool_summary: `read f${turn}.txt (1000 lines)`,
      });
    }
    transcript.push({ ...base, id: transcript.length, role: 'assistant', content: `Answer ${turn}.` });
  }
  const budgets: Budgets = { reserve: 409, keepRecent: 614, summary: 204, numCtx: 2048, scaled: false };
  let calls = 0;
  const compact = async () => {
    calls = 0;
    const outcome = await compactConversation({
      transcript,
      budgets,
      system: 'You are helpful.',
      ask: async () => {
        calls += 1;
        return { text: 'The user asked questions; the assistant answered them.', cutOff: false };
      },
      summarizerNumCtx: 2048,
      model: 'bench',
      maxMessageChars: 1000,
      charsPerToken: 4,
      now: () => new Date(),
    });
    if (!outcome.ok) throw new Error(`benchmark compaction failed: ${JSON.stringify(outcome)}`);
  };
  const ms = await timeMedian(compact);
  return { calls, ms };
}

/** Compaction's own cost: planning, prompt and assembly, estimator throughput, overhead around the model call. */
export const compactionBench: BenchSuite = async () => {
  const transcript = syntheticTranscript(MESSAGES);
  const cpt = 4;
  const budgets: Budgets = { reserve: 6553, keepRecent: 9830, summary: 3276, numCtx: 32_768, scaled: false };
  const estimateText = (text: string) => estimateTokens(text, cpt);
  const narrative = 'The user and the assistant debugged stale values. '.repeat(200);

  const pipeline = (previous?: CompactionRecord) => {
    const plan = planCompaction({
      transcript,
      previous,
      budgets,
      estimate: (m) => estimateMessageTokens(toWireMessage(m), cpt),
    });
    if (!plan) throw new Error('the benchmark transcript must be compactable');
    const lines = renderSliceLines(plan.slice, { maxMessageChars: 2000, firstIndex: plan.from });
    // As compactConversation does: chunks sized to the summarizer's window, one request each.
    const capacity = chunkCapacity({
      summarizerNumCtx: budgets.numCtx,
      summaryTokens: budgets.summary,
      previousNarrative: narrative,
      estimate: estimateText,
    });
    for (const chunk of chunkLines(lines, capacity, estimateText)) {
      buildSummarizerRequest({ lines: chunk, maxChars: budgets.summary * 4, previousNarrative: narrative });
    }
    const toolEntries = mergeToolEntries(
      [],
      collectToolEntries(plan.slice),
      toolLogRoom(budgets.summary, narrative, estimateText),
      estimateText,
    );
    const record = {
      narrative,
      toolEntries,
      upto: plan.upto,
      model: 'm',
      at: '',
      tokensBefore: 0,
      tokensAfter: 0,
    };
    estimateMessagesTokens(buildModelView({ system: 'You are helpful.', record, transcript }), cpt);
  };
  const pipelineRuns = await timeRuns(() => pipeline());
  const pipelineMs = median(pipelineRuns);
  // What a compaction really does in a long chat: the slice is what was added since the last one.
  const previous: CompactionRecord = {
    upto: MESSAGES - 200,
    narrative,
    toolEntries: [],
    model: 'bench',
    at: '',
    tokensBefore: 0,
    tokensAfter: 0,
  };
  const incrementalMs = await timeMedian(() => pipeline(previous));

  const wire = transcript.map((m) => toWireMessage(m));
  const bytes = wire.reduce((sum, m) => sum + Buffer.byteLength(m.content), 0);
  let sink = 0;
  const estimatorMs = await timeMedian(() => {
    for (let i = 0; i < 5; i++) sink += estimateMessagesTokens(wire, cpt);
  });
  if (sink < 0) throw new Error('unreachable');
  const throughput = (5 * bytes) / 1e6 / (estimatorMs / 1000);

  const overheadRuns = await timeRuns(async () => {
    const outcome = await compactConversation({
      transcript,
      budgets,
      system: 'You are helpful.',
      ask: async () => ({ text: narrative, cutOff: false }),
      summarizerNumCtx: 32_768,
      model: 'bench',
      maxMessageChars: 2000,
      charsPerToken: cpt,
      now: () => new Date(),
    });
    if (!outcome.ok) throw new Error(`benchmark compaction failed: ${JSON.stringify(outcome)}`);
  });

  const overheadMs = median(overheadRuns);
  const summarizerMs = await summarizerCallMs(narrative);
  const overheadRatio = overheadMs / summarizerMs;
  const small = await smallWindowCompaction();

  const rows: BenchRow[] = [
    {
      name: `plan+prompt+assembly, ${MESSAGES.toLocaleString('en')} messages all summarized at once (worst case)`,
      ...medianSpread(pipelineRuns, round),
      unit: 'ms',
      target: '≤ 20 ms',
      pass: pipelineMs <= 20,
    },
    {
      name: `plan+prompt+assembly, ${MESSAGES.toLocaleString('en')}-message transcript, 200 new messages since the last compaction`,
      value: round(incrementalMs),
      unit: 'ms',
      target: '≤ 20 ms',
      pass: incrementalMs <= 20,
    },
    {
      name: 'token estimator throughput',
      value: round(throughput),
      unit: 'MB/s',
      target: '≥ 50 MB/s',
      pass: throughput >= 50,
    },
    {
      name: `compaction overhead without the model call, ${MESSAGES.toLocaleString('en')} messages`,
      ...medianSpread(overheadRuns, round),
      unit: 'ms',
    },
    {
      name: 'one summarizer call at the emulator default speed (the same narrative streamed)',
      value: Math.round(summarizerMs),
      unit: 'ms',
    },
    {
      name: 'compaction overhead as a share of the summarizer call',
      ...medianSpread(
        overheadRuns.map((ms) => (ms / summarizerMs) * 100),
        round,
      ),
      unit: '%',
      target: '≤ 5%',
      pass: overheadRatio <= 0.05,
    },
    {
      name: 'summarizer calls per compaction, 40-message chat at num_ctx 2048 with a 71 kB paste and 20 kB tool outputs',
      value: small.calls,
      unit: 'calls',
    },
    {
      name: 'time per compaction of that chat, summarizer answering at once (ochat’s own work)',
      value: round(small.ms),
      unit: 'ms',
    },
    {
      name: 'time per compaction of that chat with each summarizer call at the emulator default speed',
      value: Math.round(small.ms + small.calls * summarizerMs),
      unit: 'ms',
    },
  ];
  return rows;
};
