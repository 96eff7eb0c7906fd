/**
 * `ochat eval compaction`: the probe chat (eval/probe-chat.ts) run against the user's own server
 * and models, scored deterministically, printed as a table by kind with each compaction's time,
 * so a summarizer model and budgets can be chosen from data. Loaded only when asked for.
 */
import { parseArgs } from 'node:util';
import { supportsThinking } from '../backend/capabilities.js';
import { resolveSummarizer } from '../chat/compaction/summarizer.js';
import { chooseModel, connectModel } from '../chat/request/model-selection.js';
import { CommandLineExit } from '../cli/flags.js';
import { type RunSettings, resolveSettings } from '../cli/settings.js';
import { AppState } from '../config/app-state.js';
import { ConfigError } from '../config/config-error.js';
import {
  answerGivesProbe,
  PROBE_ROUNDS,
  PROBES,
  type Probe,
  probeInView,
  scoreByKind,
} from '../eval/probe-chat.js';
import { askProbes, recallReaches, runProbeChat, viewText } from '../eval/probe-run.js';
import { InvalidHostError } from '../platform/host.js';
import { describeError } from '../text/describe-error.js';
import { createBackend } from './create-backend.js';

/** `ochat eval --help`. */
export const EVAL_USAGE = `Usage: ochat eval compaction [options]

Runs a scripted chat with 22 planted probes (two each of: plain fact, path, number, command,
identifier, decision, constraint, updated fact, fact in a paste, fact in a tool output, pinned
note) through ${PROBE_ROUNDS} compactions with your summarizer model, then scores what is left:
"in view" = the probe's value, verbatim, in what the model would be sent after the last
compaction; "answered" = the chat model, asked each probe's question then, answers with it;
"recall" = the recall tool, asked for it then, returns it verbatim from the history.
Prints a table by kind and the time each compaction took. Your config's compaction settings apply.

Options:
  -m, --model <name>          the chat model asked the questions (default: config \`model\`)
  --summarizer-model <name>   the model that summarizes (default: config \`compaction.model\`, else the chat model)
  --num-ctx <n>               the chat's context window in tokens (default: as the chat decides it)
  --host <url>                the server: Ollama or OpenAI-compatible (default: as for the chat)
  --api <ollama|openai>       the protocol the host speaks, instead of finding it out
  -c, --config <file>         config file
  -h, --help                  print this help

Example:
  ochat eval compaction -m llama3.2 --summarizer-model qwen2.5:0.5b --num-ctx 4096`;

/** A usage error, said in words (exit 2). */
class EvalUsageError extends Error {}

/** The command line after `ochat eval`, read; undefined for --help. */
function readArgs(args: string[]) {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw new EvalUsageError(describeError(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  if (positionals[0] !== 'compaction' || positionals.length > 1)
    throw new EvalUsageError(
      positionals.length
        ? `unknown evaluation "${positionals.join(' ')}": the one there is is \`ochat eval compaction\`.`
        : 'name what to evaluate: `ochat eval compaction`.',
    );
  const numCtx = values['num-ctx'] === undefined ? undefined : Number(values['num-ctx']);
  if (numCtx !== undefined && (!Number.isInteger(numCtx) || numCtx <= 0))
    throw new EvalUsageError(
      `--num-ctx needs a positive whole number, e.g. 4096, not "${values['num-ctx']}".`,
    );
  if (values.api !== undefined && values.api !== 'ollama' && values.api !== 'openai')
    throw new EvalUsageError(`--api is ollama or openai, not "${values.api}".`);
  return { ...values, numCtx };
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      model: { type: 'string', short: 'm' },
      'summarizer-model': { type: 'string' },
      'num-ctx': { type: 'string' },
      host: { type: 'string' },
      api: { type: 'string' },
      config: { type: 'string', short: 'c' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** Runs `ochat eval <args>`; resolves with the exit code (0 done, 1 failed, 2 usage). */
export async function runEval(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let options: ReturnType<typeof readArgs>;
  try {
    options = readArgs(args);
  } catch (error) {
    process.stderr.write(`ochat: ${describeError(error)}\n${EVAL_USAGE}\n`);
    return 2;
  }
  if (!options) {
    process.stdout.write(`${EVAL_USAGE}\n`);
    return 0;
  }
  // The chat's own settings: config file, host and its environment, as `ochat` reads them.
  const argv = ['node', 'ochat'];
  if (options.config !== undefined) argv.push('--config', options.config);
  if (options.host !== undefined) argv.push('--host', options.host);
  if (options.api !== undefined) argv.push('--api', options.api);
  let settings: RunSettings;
  try {
    settings = await resolveSettings(argv, env);
  } catch (error) {
    if (error instanceof CommandLineExit) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof ConfigError || error instanceof InvalidHostError) {
      process.stderr.write(`ochat: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { config } = settings;
  try {
    const appState = new AppState();
    const backend = await createBackend(settings, appState, env);
    const model = await chooseModel({ flag: options.model, config: config.model }, () =>
      backend.listModels(),
    );
    const configNumCtx = typeof config.options.num_ctx === 'number' ? config.options.num_ctx : undefined;
    const chat = await connectModel(backend, model, { flag: options.numCtx, config: configNumCtx });
    const summarizerModel = options['summarizer-model'] ?? config.compaction.model ?? undefined;
    const summarizer = await resolveSummarizer(backend, chat, summarizerModel).catch((error: unknown) => {
      throw new Error(`the summarizer model ${summarizerModel}: ${describeError(error)}`);
    });
    const say = (line: string) => process.stderr.write(`${line}\n`);
    say(
      `Evaluating compaction: ${chat.name} at num_ctx ${chat.numCtx}, summarized by ${summarizer.model} (num_ctx ${summarizer.numCtx}), at ${backend.host}; ${PROBE_ROUNDS} compactions, then ${PROBES.length} questions.`,
    );
    const run = await runProbeChat({
      summarizer,
      numCtx: chat.numCtx,
      compaction: config.compaction,
      onCompaction: (c) => say(`  compaction ${c.round}/${PROBE_ROUNDS}: ${seconds(c.ms)}. ${c.report}`),
    });
    say(`  asking the ${PROBES.length} questions…`);
    const thinks = supportsThinking(chat.info);
    const asked = { model: chat.name, numCtx: chat.numCtx, ...(thinks ? { think: false as const } : {}) };
    const answers = await askProbes(backend, asked, run.view, PROBES);
    const text = viewText(run.view);
    const answered = new Set(
      answers.filter((a) => answerGivesProbe(a.probe, a.answer)).map((a) => a.probe.id),
    );
    process.stdout.write(
      formatEvalTable({
        chat: `${chat.name} (num_ctx ${chat.numCtx})`,
        summarizer: `${summarizer.model} (num_ctx ${summarizer.numCtx})`,
        inView: (p) => probeInView(p, text),
        answered: (p) => answered.has(p.id),
        recalled: (p) => recallReaches(p, run.transcript),
        compactions: run.compactions,
      }),
    );
    return 0;
  } catch (error) {
    process.stderr.write(`ochat: eval compaction: ${describeError(error)}\n`);
    return 1;
  }
}

/** `850 ms`, `12.3 s`. */
function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** What the table is made of. */
export interface EvalTableInput {
  chat: string;
  summarizer: string;
  inView: (probe: Probe) => boolean;
  answered: (probe: Probe) => boolean;
  /** The `recall` tool, asked the probe's query after the last compaction, returns its value. */
  recalled: (probe: Probe) => boolean;
  compactions: readonly { round: number; ms: number; report: string }[];
}

/** The eval's result as the user reads it: retention by kind, the totals, then each compaction's time. */
export function formatEvalTable(input: EvalTableInput): string {
  const row = (label: string, probes: readonly Probe[]) => {
    const count = (passed: (p: Probe) => boolean, of = probes) =>
      of.length ? `${of.filter(passed).length}/${of.length}` : '—';
    // Pins are in every request, not in the history: recall has nothing to find of them.
    const inHistory = probes.filter((p) => p.recallQuery !== undefined);
    return `${label.padEnd(28)}${count(input.inView).padStart(8)}${count(input.answered).padStart(10)}${count(input.recalled, inHistory).padStart(8)}`;
  };
  const kinds = scoreByKind(PROBES, () => true).map((k) =>
    row(
      k.label,
      PROBES.filter((p) => p.kind === k.kind),
    ),
  );
  const times = input.compactions.map((c) => c.ms);
  const total = times.reduce((a, b) => a + b, 0);
  return [
    `Compaction eval: chat model ${input.chat}, summarizer ${input.summarizer}`,
    '',
    `${'kind'.padEnd(28)}${'in view'.padStart(8)}${'answered'.padStart(10)}${'recall'.padStart(8)}`,
    ...kinds,
    row('all probes', PROBES),
    row(
      'exact details and pins',
      PROBES.filter((p) => p.exact),
    ),
    '',
    `compaction time: ${input.compactions.map((c) => seconds(c.ms)).join(', ')}`,
    `  total ${seconds(total)}, slowest ${seconds(Math.max(0, ...times))}`,
    '',
  ].join('\n');
}
