import { IN_PARTS_NOTE } from '../src/compaction/long-messages.js';
import { CUT_OFF_NOTICE } from '../src/compaction/summarizer-prompt.js';
import {
  continuesChat,
  isCondenseRequest,
  isMissingDetailsRequest,
  isSummarizerRequest,
  summarizerPrompt,
} from '../test/support/compaction-summarizer.js';
import { LlamaServerUnavailable } from '../test/support/llama-server/build.js';
import {
  compactionFailures,
  compactionReports,
  noteText,
  sendAndSettle,
  startLlamaChat,
} from '../test/support/llama-server/llama-chat.js';
import { type LlamaServerFiles, prepareLlamaServer } from '../test/support/llama-server/prepare.js';
import type { RecordedCompletion } from '../test/support/llama-server/recording-proxy.js';
import type { BenchRow, BenchSuite } from './bench-row.js';

/** Compactions the long chat runs to at each window. */
const COMPACTIONS = 3;
const MAX_TURNS = 24;
/** The tests' window, and twice it. */
const WINDOWS = [2048, 4096];

const percent = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

/**
 * What a summarizer request asked: `fold` (the slice), `again` (the fold asked again after a reply
 * cut off), `condense` (a summary over its limit), `details` (exact details left out), `part` (a
 * long message condensed on its own); `*` marks one that did not continue the chat's request.
 */
function kind(completion: RecordedCompletion): string {
  const prompt = summarizerPrompt(completion);
  const what = isCondenseRequest(completion)
    ? 'condense'
    : isMissingDetailsRequest(completion)
      ? 'details'
      : prompt.includes(IN_PARTS_NOTE)
        ? 'part'
        : prompt.includes(CUT_OFF_NOTICE)
          ? 'again'
          : 'fold';
  return continuesChat(completion) ? what : `${what}*`;
}

/** A long chat at `ctx` until COMPACTIONS compactions; the summarizer requests' figures. */
async function longChat(files: LlamaServerFiles, ctx: number): Promise<BenchRow[]> {
  const chat = await startLlamaChat(files, { server: { ctx } });
  try {
    for (let n = 1; n <= MAX_TURNS && compactionReports(chat) < COMPACTIONS; n++) {
      await sendAndSettle(chat, noteText(n), 120_000, true);
    }
    const measured = chat.proxy.completions.filter((c) => isSummarizerRequest(c) && c.timings && c.usage);
    if (!measured.length) throw new Error(`the long chat at ${ctx} ran no compaction`);
    const shares = measured.map((c) => percent(c.timings!.prompt_n, c.usage!.prompt_tokens));
    const evaluated = measured.reduce((sum, c) => sum + c.timings!.prompt_n, 0);
    const prompt = measured.reduce((sum, c) => sum + c.usage!.prompt_tokens, 0);
    const worst = Math.max(...shares);
    const kinds = measured.map(kind);
    const count = (test: (k: string) => boolean) => kinds.filter(test).length;
    process.stdout.write(
      `  at ${ctx}, ${compactionReports(chat)} compactions, ${compactionFailures(chat)} failed; summarizer requests, evaluated anew/prompt tokens (* standalone, not continuing the chat's request): ${measured.map((c, i) => `${kinds[i]} ${c.timings!.prompt_n}/${c.usage!.prompt_tokens}`).join(', ')}\n`,
    );
    process.stdout.write(
      `  at ${ctx}: ${count((k) => k.endsWith('*'))} of ${measured.length} requests standalone; long messages condensed on their own: ${count((k) => k.startsWith('part'))} requests\n`,
    );
    return [
      {
        name: `summarizer prompt evaluated anew, all ${measured.length} requests of ${COMPACTIONS} compactions (llama-server, ${ctx})`,
        value: percent(evaluated, prompt),
        unit: '%',
        target: '≤ 10%',
        pass: percent(evaluated, prompt) <= 10,
      },
      {
        name: `summarizer prompt evaluated anew, the worst request (${ctx})`,
        value: worst,
        unit: '%',
        target: '≤ 25%',
        pass: worst <= 25,
      },
    ];
  } finally {
    await chat.close();
  }
}

/**
 * What a compaction costs the server where it is real: a long chat by the built ochat against
 * the real llama.cpp server (the tiny model), and for each summarizer request the prompt tokens
 * the server evaluated anew (`timings.prompt_n`) over the prompt's tokens (`usage.prompt_tokens`);
 * the rest came from its KV cache. A summarizer request that continues the chat's own prompt
 * (the fold and its follow-ups) evaluates little more than its last message; a standalone one,
 * all of it. The tiny model's random words always run to the length limit, so every compaction
 * takes the follow-ups too (asked again, condensed, details asked for).
 */
export const llamaServerBench: BenchSuite = async (): Promise<BenchRow[]> => {
  let files: LlamaServerFiles;
  try {
    files = await prepareLlamaServer((message) => process.stdout.write(`  ${message}\n`));
  } catch (error) {
    if (!(error instanceof LlamaServerUnavailable)) throw error;
    process.stdout.write(`  skipped: ${error.message}\n`);
    return [];
  }
  const rows: BenchRow[] = [];
  for (const ctx of WINDOWS) rows.push(...(await longChat(files, ctx)));
  return rows;
};
