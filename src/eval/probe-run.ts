/**
 * Runs the probe chat (probe-chat.ts) through the real compaction code: the scripted turns are
 * appended round by round, each round compacted by `compactConversation` with the given
 * summarizer (the emulator's in `npm run bench`, the user's model in `ochat eval compaction`),
 * and what the model would be sent is read after every compaction. No chat model answers the
 * script: only the summarizer, and, afterwards, the questions (askProbes).
 */
import type { ChatBackend } from '../backend/chat-backend.js';
import type { Ask } from '../compaction/ask.js';
import { resolveBudgets } from '../compaction/budgets.js';
import { compactConversation } from '../compaction/compactor.js';
import { buildModelView } from '../compaction/model-view.js';
import { renderPinsSection } from '../compaction/pins.js';
import { formatCompactionReport } from '../compaction/report.js';
import { compactorSettings } from '../config/compaction-settings.js';
import type { Config } from '../config/schema.js';
import type { CompactionRecord } from '../conversation/compaction-record.js';
import type { Message, WireMessage } from '../conversation/message.js';
import { formatRecall, searchHistory } from '../conversation/recall-search.js';
import { DEFAULT_CHARS_PER_TOKEN } from '../conversation/token-estimate.js';
import {
  appendScriptedTurn,
  PROBE_PINS,
  PROBE_ROUNDS,
  type Probe,
  plantedProbes,
  probeInView,
  probeRoundTurns,
  recallFindsProbe,
} from './probe-chat.js';

/** The system prompt of the probe chat. */
export const PROBE_SYSTEM = 'You are a helpful assistant. Answer briefly.';

/** What a probe run needs. */
export interface ProbeRunInput {
  /** The summarizer call, its model and the window it runs with. */
  summarizer: { ask: Ask; model: string; numCtx: number };
  /** The chat's window: the budgets and the trigger are the chat's. */
  numCtx: number;
  /** `compaction:` as configured (budgets, details, max_message_chars, prompt…). */
  compaction: Config['compaction'];
  /** How many rounds, each compacted once (default PROBE_ROUNDS). */
  rounds?: number;
  /** Told after each compaction, for progress. */
  onCompaction?: (compaction: ProbeCompaction) => void;
  signal?: AbortSignal;
}

/** One compaction of the run. */
export interface ProbeCompaction {
  /** From 1. */
  round: number;
  /** Wall time of the compaction, summarizer calls included. */
  ms: number;
  /** The one-line report the chat would show. */
  report: string;
  /** Probes planted so far whose value the model would see after it. */
  inView: Set<string>;
  /** Probes planted so far (by id). */
  planted: string[];
}

/** The run's outcome: the whole history, what the model sees after the last compaction, each compaction. */
export interface ProbeRun {
  transcript: Message[];
  record: CompactionRecord | undefined;
  /** The request's messages after the last compaction (what the model would be sent). */
  view: WireMessage[];
  compactions: ProbeCompaction[];
}

/** The text of a view, as one string (every message's content). */
export function viewText(view: readonly WireMessage[]): string {
  return view.map((m) => m.content).join('\n');
}

/**
 * Plays the probe chat, compacting at the end of each round (as `/compact` would: the trigger is
 * past due by then). A compaction that fails ends the run with its reason, in words.
 */
export async function runProbeChat(input: ProbeRunInput): Promise<ProbeRun> {
  const { compaction, numCtx } = input;
  const budgets = resolveBudgets(numCtx, compaction);
  const pins = renderPinsSection(PROBE_PINS);
  const transcript: Message[] = [];
  const compactions: ProbeCompaction[] = [];
  let record: CompactionRecord | undefined;
  const at = new Date().toISOString();
  const view = () => buildModelView({ system: PROBE_SYSTEM, pins, record, transcript });
  for (let round = 0; round < (input.rounds ?? PROBE_ROUNDS); round++) {
    for (const turn of probeRoundTurns(round, numCtx)) appendScriptedTurn(transcript, turn, at);
    const start = performance.now();
    const outcome = await compactConversation({
      transcript,
      previous: record,
      budgets,
      system: PROBE_SYSTEM,
      pins,
      ask: input.summarizer.ask,
      summarizerNumCtx: input.summarizer.numCtx,
      model: input.summarizer.model,
      ...compactorSettings(compaction),
      charsPerToken: DEFAULT_CHARS_PER_TOKEN,
      now: () => new Date(),
      signal: input.signal,
    });
    const ms = performance.now() - start;
    if (!outcome.ok) {
      const why = outcome.reason === 'failed' ? outcome.message : 'there was nothing to compact';
      throw new Error(`compaction ${round + 1} failed: ${why}`);
    }
    record = outcome.record;
    const text = viewText(view());
    const planted = plantedProbes(round);
    const done: ProbeCompaction = {
      round: round + 1,
      ms,
      report: formatCompactionReport(outcome.result),
      inView: new Set(planted.filter((p) => probeInView(p, text, round)).map((p) => p.id)),
      planted: planted.map((p) => p.id),
    };
    compactions.push(done);
    input.onCompaction?.(done);
  }
  return { transcript, record, view: view(), compactions };
}

/** A probe's question and the model's answer. */
export interface ProbeAnswer {
  probe: Probe;
  answer: string;
}

/**
 * Asks the chat model each probe's question after the last compaction: the view as it would be
 * sent, then the question as the user's next message (each question on its own, not a chat).
 */
export async function askProbes(
  backend: ChatBackend,
  /** `think: false` for a thinking model: the answer is what is scored, and thinking only costs time. */
  chat: { model: string; numCtx: number; think?: false },
  view: readonly WireMessage[],
  probes: readonly Probe[],
  onAnswer?: (answer: ProbeAnswer) => void,
  signal?: AbortSignal,
): Promise<ProbeAnswer[]> {
  const answers: ProbeAnswer[] = [];
  for (const probe of probes) {
    const reply = await backend.chat(
      {
        model: chat.model,
        messages: [...view, { role: 'user', content: `${probe.question} Answer with the value alone.` }],
        options: { num_ctx: chat.numCtx },
        ...(chat.think === false ? { think: false } : {}),
        truncate: false,
      },
      { signal },
    );
    const answer = { probe, answer: reply.content };
    answers.push(answer);
    onAnswer?.(answer);
  }
  return answers;
}

/**
 * Whether the `recall` tool, called with the probe's query over the whole history, returns its
 * value verbatim (what the model reads of it, bounded as the tool bounds it); false for a probe
 * with no query (a pin: in every request, not in the history).
 */
export function recallReaches(probe: Probe, transcript: readonly Message[]): boolean {
  if (probe.recallQuery === undefined) return false;
  return recallFindsProbe(
    probe,
    formatRecall(probe.recallQuery, searchHistory(transcript, probe.recallQuery)),
  );
}
