import { isSummarizerRequest } from '../test/support/compaction-summarizer.js';
import { LlamaServerUnavailable } from '../test/support/llama-server/build.js';
import {
  type LlamaChat,
  noteText,
  sendAndSettle,
  startLlamaChat,
} from '../test/support/llama-server/llama-chat.js';
import { prepareLlamaServer } from '../test/support/llama-server/prepare.js';
import type { RecordedCompletion } from '../test/support/llama-server/recording-proxy.js';
import type { BenchRow, BenchSuite } from './bench-row.js';

/** Compactions the long chat runs to before it is measured. */
const COMPACTIONS = 4;
const MAX_TURNS = 20;

const percent = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

/**
 * What a compaction costs the server where it is real: a long chat by the built ochat against
 * the real llama.cpp server (2048-token window, the tiny model), and for each summarizer request
 * the prompt tokens the server evaluated anew (`timings.prompt_n`) over the prompt's tokens
 * (`usage.prompt_tokens`); the rest came from its KV cache. A summarizer request that continues
 * the chat's own prompt evaluates little more than its last message; a standalone one, all of it.
 */
export const llamaServerBench: BenchSuite = async (): Promise<BenchRow[]> => {
  let files: Awaited<ReturnType<typeof prepareLlamaServer>>;
  try {
    files = await prepareLlamaServer((message) => process.stdout.write(`  ${message}\n`));
  } catch (error) {
    if (!(error instanceof LlamaServerUnavailable)) throw error;
    process.stdout.write(`  skipped: ${error.message}\n`);
    return [];
  }
  let chat: LlamaChat | undefined;
  try {
    chat = await startLlamaChat(files);
    const summarizer = (): RecordedCompletion[] => chat?.proxy.completions.filter(isSummarizerRequest) ?? [];
    for (let n = 1; n <= MAX_TURNS && summarizer().length < COMPACTIONS; n++) {
      await sendAndSettle(chat, noteText(n));
    }
    const measured = summarizer().filter((completion) => completion.timings && completion.usage);
    if (!measured.length) throw new Error('the long chat ran no compaction');
    const shares = measured.map((c) => percent(c.timings!.prompt_n, c.usage!.prompt_tokens));
    const evaluated = measured.reduce((sum, c) => sum + c.timings!.prompt_n, 0);
    const prompt = measured.reduce((sum, c) => sum + c.usage!.prompt_tokens, 0);
    const worst = Math.max(...shares);
    process.stdout.write(
      `  summarizer requests (evaluated/prompt tokens): ${measured.map((c) => `${c.timings!.prompt_n}/${c.usage!.prompt_tokens}`).join(', ')}\n`,
    );
    return [
      {
        name: `summarizer prompt evaluated anew, all ${measured.length} requests of a long chat (llama-server, 2048)`,
        value: percent(evaluated, prompt),
        unit: '%',
        target: '≤ 10%',
        pass: percent(evaluated, prompt) <= 10,
      },
      {
        name: 'summarizer prompt evaluated anew, the worst request',
        value: worst,
        unit: '%',
        target: '≤ 25%',
        pass: worst <= 25,
      },
    ];
  } finally {
    await chat?.close();
  }
};
