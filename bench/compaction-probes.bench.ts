import { resolveSummarizer } from '../src/chat/compaction/summarizer.js';
import { connectModel } from '../src/chat/request/model-selection.js';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { PROBES, type Probe, probeInView, retention, scoreByKind } from '../src/eval/probe-chat.js';
import { recallReaches, runProbeChat, viewText } from '../src/eval/probe-run.js';
import { OllamaClient } from '../src/ollama/client.js';
import { compactionResponder, gistOnly, keepEverything } from '../test/support/compaction-summarizer.js';
import { type ChatRequestRecord, type ScriptedReply, startEmulator } from '../test/support/emulator.js';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { median } from './process-stats.js';

const round = (n: number) => Math.round(n * 10) / 10;

/** One run of the probe chat: the emulator's summarizer, the real compaction code, the real client. */
async function probeRun(
  summarizer: { label: string; summarize: (req: ChatRequestRecord) => ScriptedReply },
  numCtx: number,
): Promise<BenchRow[]> {
  // As fast as it can answer: the rows measure what compaction keeps, and ochat's own time.
  const emulator = await startEmulator({ models: [{ name: 'probe:latest' }], tokensPerSecond: Infinity });
  try {
    emulator.respondWith(compactionResponder({ summarize: summarizer.summarize }));
    const backend = new OllamaClient({ host: emulator.url });
    const chat = await connectModel(backend, 'probe:latest', { flag: numCtx });
    const { ask } = await resolveSummarizer(backend, chat, undefined);
    const run = await runProbeChat({
      summarizer: { ask, model: chat.name, numCtx: chat.numCtx },
      numCtx,
      compaction: DEFAULT_CONFIG.compaction,
    });
    const text = viewText(run.view);
    const inView = (p: Probe) => probeInView(p, text);
    const exact = PROBES.filter((p) => p.exact);
    const inHistory = PROBES.filter((p) => p.recallQuery !== undefined);
    const recallShare = retention(inHistory, (p) => recallReaches(p, run.transcript));
    const at = `${summarizer.label}, num_ctx ${numCtx}`;
    const kinds = scoreByKind(PROBES, inView)
      .map((k) => `${k.label} ${k.passed}/${k.total}`)
      .join(', ');
    const rounds = run.compactions.map((c) => Math.round((c.inView.size / c.planted.length) * 100)).join(' ');
    const exactShare = retention(exact, inView);
    const exactIds = new Set(exact.map((p) => p.id));
    const exactRounds = run.compactions
      .map((c) => {
        const planted = c.planted.filter((id) => exactIds.has(id));
        return Math.round((planted.filter((id) => c.inView.has(id)).length / planted.length) * 100);
      })
      .join(' ');
    return [
      {
        name: `${at}: every probe in the request after ${run.compactions.length} compactions (by kind: ${kinds})`,
        value: round(retention(PROBES, inView)),
        unit: '%',
      },
      {
        name: `${at}: probes planted so far in the request, compaction 1 → ${run.compactions.length} (%): ${rounds}`,
        value: round(retention(PROBES, inView)),
        unit: '%',
      },
      {
        name: `${at}: exact details and pinned notes in the request after the last compaction (${exact.length} probes; by compaction, %: ${exactRounds})`,
        value: round(exactShare),
        unit: '%',
        target: '100%',
        pass: exactShare === 100,
      },
      {
        name: `${at}: probes the recall tool returns verbatim (${inHistory.length} in the history; the pins are in every request)`,
        value: round(recallShare),
        unit: '%',
        target: '100%',
        pass: recallShare === 100,
      },
      {
        name: `${at}: time per compaction, summarizer answering at once (median of ${run.compactions.length})`,
        value: round(median(run.compactions.map((c) => c.ms))),
        unit: 'ms',
      },
    ];
  } finally {
    await emulator.close();
  }
}

/**
 * Compaction quality by typed probes (issue #33 item 4): the probe chat compacted 12 times at
 * num_ctx 2048 and 4096, with a summarizer that keeps everything and one that keeps only the gist.
 */
export const compactionProbesBench: BenchSuite = async () => {
  const summarizers = [
    { label: 'keeps everything', summarize: keepEverything },
    { label: 'gist only', summarize: gistOnly },
  ];
  const rows: BenchRow[] = [];
  for (const summarizer of summarizers)
    for (const numCtx of [2048, 4096]) rows.push(...(await probeRun(summarizer, numCtx)));
  return rows;
};
