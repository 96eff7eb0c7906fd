/**
 * Runs the Ollama emulator as its own process, for manual runs (tmux) and benchmarks:
 *
 *   npx tsx test/support/emulator-cli.ts --port 11434 [--models a,b] [--tps 1000] [--ctx 4096]
 *     [--reply-tokens N] [--summarizer keep-all|keep-everything|gist-only] [--chat probe-reader]
 *
 * A model may carry capabilities and a Modelfile num_ctx: `qwen3:8b+tools+thinking@8192`, `llava+vision`.
 * `--summarizer`: answer ochat's summarizer requests by keeping every FACT- token it is shown, or
 * everything it is shown as far as its limit allows, or only the gist, dropping every exact detail
 * as small models do (compaction-summarizer.ts). `--chat probe-reader`: the chat model answers the
 * probe chat's questions from what it is sent (probe-reader.ts; for `ochat eval compaction`).
 * Prints the URL, then serves until killed.
 */
import { parseArgs } from 'node:util';
import { compactionResponder, gistOnly, keepEverything, keepWhatItIsShown } from './compaction-summarizer.js';
import { startEmulator } from './emulator.js';
import { parseModelSpec } from './emulator-model-spec.js';
import { probeReader } from './probe-reader.js';

function parseNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = value === 'Infinity' ? Infinity : Number(value);
  if (Number.isNaN(number) || number < 0) throw new Error(`--${flag} needs a number, got "${value}"`);
  return number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '11434' },
      models: { type: 'string' },
      tps: { type: 'string' },
      ctx: { type: 'string' },
      'reply-tokens': { type: 'string' },
      summarizer: { type: 'string' },
      chat: { type: 'string' },
    },
  });
  const replyTokens = parseNumber('reply-tokens', values['reply-tokens']);
  const emulator = await startEmulator({
    port: parseNumber('port', values.port),
    models: values.models?.split(',').filter(Boolean).map(parseModelSpec),
    tokensPerSecond: parseNumber('tps', values.tps),
    defaultNumCtx: parseNumber('ctx', values.ctx),
  });
  const summarizers = {
    'keep-all': keepWhatItIsShown,
    'keep-everything': keepEverything,
    'gist-only': gistOnly,
  };
  const summarizer = values.summarizer;
  if (summarizer !== undefined && !(summarizer in summarizers))
    throw new Error(`--summarizer needs keep-all, keep-everything or gist-only, got "${summarizer}"`);
  if (values.chat !== undefined && values.chat !== 'probe-reader')
    throw new Error(`--chat needs probe-reader, got "${values.chat}"`);
  const chat =
    values.chat === 'probe-reader'
      ? probeReader
      : replyTokens !== undefined
        ? () => ({ tokens: replyTokens })
        : undefined;
  if (summarizer !== undefined)
    emulator.respondWith(
      compactionResponder({ summarize: summarizers[summarizer as keyof typeof summarizers], chat }),
    );
  else if (chat) emulator.respondWith(chat);
  process.stdout.write(`${emulator.url}\n`);
  const stop = () => {
    emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
