import { type ChatBackend, replyLimitName, serverName } from '../../backend/chat-backend.js';
import { BackendError } from '../../backend/errors.js';
import type { ChatDelta, ChatReply } from '../../backend/interfaces.js';
import type { AppState } from '../../config/app-state.js';
import type { Config } from '../../config/schema.js';
import type { Conversation } from '../../conversation/conversation.js';
import { formatTokens } from '../../conversation/format-tokens.js';
import type { ReceivedToolCall, ToolCall } from '../../conversation/message.js';
import { describeError } from '../../text/describe-error.js';
import { runToolLoop } from '../../tools/tool-loop.js';
import type { CompactionRunner } from '../compaction/compaction-runner.js';
import type { LocalModel } from '../model/local-model.js';
import type { ConnectedModel } from '../request/model-selection.js';
import type { ModelSettings } from '../request/model-settings.js';
import type { RequestBuilder } from '../request/request-builder.js';
import type { RequestPlan } from '../request/request-plan.js';
import type { AbortSlot } from '../state/abort-slot.js';
import type { ScreenLog } from '../state/screen-log.js';
import type { ToolRunner } from '../tools/tool-runner.js';
import { ReplyPresenter } from './reply-presenter.js';
import type { TurnEnd, TurnOutcome } from './turn-outcome.js';

/** What the turn runner works with. */
export interface TurnRunnerDeps {
  backend: ChatBackend;
  appState: AppState;
  /** Read for `max_steps` (tool rounds per turn before it stops) when each turn runs. */
  config: Config['tools'];
  conversation: Conversation;
  settings: ModelSettings;
  requests: RequestBuilder;
  screen: ScreenLog;
  tools: ToolRunner;
  compaction: Pick<CompactionRunner, 'makeRoom' | 'run' | 'automatic'>;
  abort: AbortSlot;
  /** Watches each request for the model's load (`loading m1… 12 s`, `loaded in 14.2 s`, spills). */
  load?: Pick<LocalModel, 'watchReply'>;
  /** Sees every streamed chunk (one-shot mode prints them as they come). */
  onReplyDelta?: (delta: ChatDelta) => void;
  /** False in one-shot mode: nobody can press Enter to retry. */
  interactive: boolean;
  /** A refusal named the server's real window (smaller than the one in force): use it from now on. */
  learnWindow?: (tokens: number) => ConnectedModel | undefined;
}

/** What one request for a reply came to. */
type ReplyAttempt =
  | { kind: 'reply'; toolCalls: ReceivedToolCall[] }
  /** The model refused tools: they were dropped, ask again. */
  | { kind: 'retry-without-tools'; model: ConnectedModel }
  /** The server refused a prompt over num_ctx (`truncate: false`); compacted, ask again (once). */
  | { kind: 'retry-after-compaction'; model: ConnectedModel }
  /** Failed, cancelled or held: the reason is on the screen and the turn ends. */
  | { kind: 'stopped'; end: TurnEnd };

/** One turn as it runs: the model asked, and how it is going. */
interface Turn {
  model: ConnectedModel;
  /** The plan a budget gate just let through: the next request sends it as it is (then it is spent). */
  passed?: RequestPlan;
  /** Set when a request stops the turn (failed, cancelled, held). */
  end?: TurnEnd;
  compactionFailed: boolean;
  /** A reply came empty, or with lines of its stream skipped (said as a warning). */
  flawedReply?: boolean;
}

/** What is wrong with a reply that came whole (said in words), or undefined. */
function replyFlaw(reply: ChatReply, server: string): string | undefined {
  const skipped = reply.skippedLines ?? 0;
  const lines = skipped === 1 ? '1 line' : `${skipped.toLocaleString('en-US')} lines`;
  if (reply.content.trim() === '' && reply.toolCalls.length === 0)
    return `${server} sent an empty reply: no text${reply.thinking ? ' (only thinking)' : ''} and no tool calls${skipped ? `, and ${lines} of its stream were not JSON` : ''}.`;
  if (skipped)
    return `${lines} of ${server}'s reply stream ${skipped === 1 ? 'was' : 'were'} not JSON and skipped: the reply may be missing what ${skipped === 1 ? 'it' : 'they'} carried.`;
  return undefined;
}

/**
 * Runs a turn after its user message: streams replies into the transcript and the screen, runs
 * tool rounds, records the server's counts, and compacts in the background once the turn ends.
 */
export class TurnRunner {
  #retryable = false;
  /** This turn was already compacted and sent again after the server refused it as too long. */
  #resentAfterRefusal = false;
  /** This turn's next request was held back (its compaction cancelled): no compaction after it. */
  #held = false;

  constructor(private readonly deps: TurnRunnerDeps) {}

  /** The last turn's reply failed (not cancelled): an empty Enter runs it again. */
  get retryable(): boolean {
    return this.#retryable;
  }

  /** A new message or a new conversation: the failed turn is no longer the one to retry. */
  forgetFailure(): void {
    this.#retryable = false;
  }

  /**
   * The compaction before the turn's next request was cancelled (Ctrl+C), so nothing was sent:
   * the message stays, unanswered, and an empty Enter sends it (compacting first).
   */
  holdUnsent(): 'held' {
    const { screen, interactive } = this.deps;
    // The one line about the cancelled compaction: below the message it was for.
    screen.notice('warning', 'Compaction cancelled; nothing was changed, and the message was not sent.');
    this.#held = true;
    if (!interactive) return 'held';
    this.#retryable = true;
    screen.notice('info', 'Press Enter on an empty prompt to send it (compacting first).');
    return 'held';
  }

  /**
   * Runs the current turn with `model` to its end: replies and tool rounds, until an answer or a
   * stop. `passed`: the plan the caller's budget gate just let through, which the first request sends.
   */
  async run(model: ConnectedModel, passed?: RequestPlan): Promise<TurnOutcome> {
    const { config, requests, screen, compaction } = this.deps;
    this.#retryable = false;
    this.#resentAfterRefusal = false;
    this.#held = false;
    const abort = this.deps.abort.begin();
    const turn: Turn = { model, passed, compactionFailed: false };
    let replying: Promise<{ toolCalls: ReceivedToolCall[] }> | undefined;
    try {
      const outcome = await runToolLoop({
        requestReply: () => {
          replying = this.streamReply(turn, abort.signal);
          return replying;
        },
        execute: (call) => this.deps.tools.run(call, abort.signal),
        maxSteps: config.max_steps,
        signal: abort.signal,
      });
      if (outcome.stop === 'aborted') turn.end ??= 'cancelled';
      if (outcome.stop === 'max-steps') {
        turn.end ??= 'max-steps';
        screen.notice(
          'warning',
          `Stopped after ${config.max_steps} tool rounds (tools.max_steps). Send a message to continue.`,
        );
      }
    } catch (error) {
      screen.notice('error', describeError(error));
      turn.end = 'failed';
    } finally {
      this.deps.abort.end();
      screen.store.update({ busy: undefined, live: undefined });
    }
    // After Ctrl+C the loop returns at once, and the abandoned reply keeps its partial when its
    // request ends, at once for a server that answers the abort: wait for that (a second at
    // most), so the partial is in the transcript before anything typed next.
    if (abort.signal.aborted && replying) await settledWithin(replying, ABANDONED_REPLY_GRACE_MS);
    requests.refreshUsed();
    // After the reply: compacted while the user reads and types, the next send need not wait
    // (not right after the user cancelled one: the empty Enter that sends the message runs it).
    if (!this.#held && (await compaction.makeRoom()).end === 'failed') turn.compactionFailed = true;
    return {
      end: turn.end ?? 'answered',
      compactionFailed: turn.compactionFailed,
      ...(turn.flawedReply ? { flawedReply: true } : {}),
    };
  }

  /**
   * Streams one assistant reply into the transcript; returns its tool calls. A failed reply
   * returns none (the turn ends there; what went wrong is on the screen).
   */
  private async streamReply(turn: Turn, signal: AbortSignal): Promise<{ toolCalls: ReceivedToolCall[] }> {
    for (;;) {
      const attempt = await this.requestReply(turn, signal);
      if (attempt.kind === 'reply') return { toolCalls: attempt.toolCalls };
      if (attempt.kind === 'stopped') {
        turn.end = attempt.end;
        return { toolCalls: [] };
      }
      turn.model = attempt.model;
    }
  }

  /**
   * One request for the reply, and what became of it. Every request passes the budget gate
   * first (each tool round, the first after a tool loop, a retry): when it would not leave the
   * reserve free, the older turns are compacted before it is sent, so Ollama never refuses or cuts it.
   * The request is the plan the gate weighed (or, after a compaction, the chat's plan as it left
   * it); the turn's first request sends the plan its caller's gate let through, not weighed twice.
   */
  private async requestReply(turn: Turn, signal: AbortSignal): Promise<ReplyAttempt> {
    const { requests, screen, compaction } = this.deps;
    let plan = turn.passed;
    turn.passed = undefined;
    if (!plan) {
      const gate = await compaction.makeRoom({ saysCancel: false });
      if (gate.end === 'cancelled') return { kind: 'stopped', end: this.holdUnsent() };
      if (gate.end === 'failed') turn.compactionFailed = true;
      if (signal.aborted) return { kind: 'stopped', end: 'cancelled' };
      plan = gate.plan ?? requests.plan();
      if (!plan) throw new Error('Not connected to a model yet.');
    }
    const { model } = turn;
    requests.recordSent(plan);
    const presenter = new ReplyPresenter(
      ({ commit, live }) =>
        screen.store.update((s) => ({ items: commit.length ? [...s.items, ...commit] : s.items, live })),
      () => screen.itemId(),
    );
    screen.store.update({ busy: `waiting for ${model.name}…`, live: { text: '', thinking: '' } });
    let reply: ChatReply;
    const load = this.deps.load?.watchReply(model);
    try {
      reply = await this.deps.backend.chat(plan.request, {
        signal,
        onDelta: (delta) => {
          load?.firstByte();
          if (screen.store.get().busy !== 'streaming…') screen.store.update({ busy: 'streaming…' });
          presenter.push(delta);
          this.deps.onReplyDelta?.(delta);
        },
        // A busy server (429, 503) is asked again after a pause: said, so the wait is not a mystery.
        onWait: (reason) => screen.notice('warning', reason),
      });
    } catch (error) {
      load?.end();
      if (error instanceof BackendError && error.kind === 'context-exceeded') {
        presenter.finish();
        return this.afterContextRefusal(model, signal, error.window);
      }
      return this.recoverFromReplyError(error, model, presenter, signal);
    }
    presenter.finish();
    const flaw = replyFlaw(reply, serverName(this.deps.backend));
    if (flaw) {
      screen.notice('warning', flaw);
      turn.flawedReply = true;
    }
    this.deps.conversation.append({
      role: 'assistant',
      content: reply.content,
      thinking: reply.thinking || undefined,
      tool_calls: reply.toolCalls.length ? reply.toolCalls.map(storedToolCall) : undefined,
    });
    this.afterReply(model, plan, reply);
    load?.end(reply);
    await this.rememberCalibration(model);
    return { kind: 'reply', toolCalls: reply.toolCalls };
  }

  // ── the server refused the prompt as over num_ctx (truncate: false) ─────────────────────────

  /**
   * Compacts and sends again, once per turn; if the prompt still does not fit, says so. The
   * message stays in the conversation, and an empty Enter sends it again (after /set num_ctx).
   */
  private async afterContextRefusal(
    refused: ConnectedModel,
    signal: AbortSignal,
    window: number | undefined,
  ): Promise<ReplyAttempt> {
    const { screen, compaction } = this.deps;
    const server = serverName(this.deps.backend);
    // The refusal named a smaller window than the one assumed (an OpenAI-compatible server's own).
    const model = (window !== undefined && this.deps.learnWindow?.(window)) || refused;
    const numCtx = formatTokens(model.numCtx);
    // compaction.auto: false: only the user compacts (/compact, then Enter sends it again).
    if (!this.#resentAfterRefusal && !signal.aborted && compaction.automatic) {
      this.#resentAfterRefusal = true;
      screen.notice(
        'info',
        `${server} refused the prompt: it does not fit num_ctx ${numCtx}. Compacting, then sending again.`,
      );
      if (await compaction.run('auto', undefined)) return { kind: 'retry-after-compaction', model };
    }
    const trained = model.info.trainedContext;
    const most = trained ? ` (${model.name} takes up to ${formatTokens(trained)})` : '';
    screen.notice(
      'error',
      `The prompt ${this.#resentAfterRefusal ? 'still does not fit' : 'does not fit'} num_ctx ${numCtx}, so ${server} refused it rather than cut it. Your message is kept.`,
    );
    if (this.deps.interactive) {
      this.#retryable = true;
      screen.notice(
        'info',
        `Give the model a larger window with /set num_ctx <tokens>${most}, or /compact, then press Enter on an empty prompt to send it again.`,
      );
    }
    return { kind: 'stopped', end: 'failed' };
  }
  // ─────────────────────────────────────────────────────────────────────────────────────────

  /**
   * A failed or cancelled reply keeps what arrived, marked, and stops the turn; a model that
   * turns out not to support tools is asked again without them.
   */
  private recoverFromReplyError(
    error: unknown,
    model: ConnectedModel,
    presenter: ReplyPresenter,
    signal: AbortSignal,
  ): ReplyAttempt {
    const { settings, screen } = this.deps;
    if (error instanceof BackendError && error.capability === 'tools') {
      // The server knows better than /api/show: stop offering tools to this model and ask again.
      screen.notice('info', `${model.name} does not support tools; continuing without them.`);
      return { kind: 'retry-without-tools', model: settings.dropCapability('tools') ?? model };
    }
    const partial = error instanceof BackendError ? error.partial : undefined;
    const kept = partial && (partial.content || partial.thinking) ? partial : undefined;
    const hasPartial = kept !== undefined;
    presenter.finish({ interrupted: hasPartial });
    // The status line's speed was the previous reply's: this one has no figures to show.
    screen.store.update({ lastStats: undefined });
    if (kept) {
      this.deps.conversation.append({
        role: 'assistant',
        content: kept.content,
        thinking: kept.thinking || undefined,
        interrupted: true,
      });
      // A server slower to end an aborted request than the turn waits for lands its partial
      // after the turn: the meter is refreshed here too, or it would read low by the partial.
      this.deps.requests.refreshUsed();
    }
    if ((error instanceof BackendError && error.kind === 'aborted') || signal.aborted) {
      screen.notice('warning', hasPartial ? 'Reply interrupted; the partial reply is kept.' : 'Cancelled.');
      return { kind: 'stopped', end: 'cancelled' };
    }
    screen.notice('error', describeError(error));
    // With a partial reply too: the retry's reply replaces it in what the model sees (model-view.ts).
    if (this.deps.interactive) {
      this.#retryable = true;
      screen.notice('info', 'Press Enter on an empty prompt to retry.');
    }
    return { kind: 'stopped', end: 'failed' };
  }

  /** Learns from the server's counts of `plan`'s request: calibration, silent truncation, length cut, speed. */
  private afterReply(model: ConnectedModel, plan: RequestPlan, reply: ChatReply): void {
    const { conversation, requests, screen } = this.deps;
    const m = reply.metrics;
    // A server that sent no counts (no `usage`) leaves the meter to its calibrated estimate.
    const truncation =
      m.counted === false
        ? undefined
        : requests.meter.recordReply(
            {
              view: plan.view,
              tools: plan.request.tools ?? [],
              promptEvalCount: m.promptEvalCount,
              evalCount: m.evalCount,
              wholePrompt: m.wholePrompt,
              transcriptLength: conversation.transcript.length,
              recordCount: conversation.records.length,
              // The plan of the next request, the reply appended and the ratio calibrated.
              estimateNext: () => requests.plan()?.estimate ?? 0,
            },
            model.numCtx,
          );
    // A message sent anyway over the window: what the server cuts was said when it was sent.
    if (truncation && !plan.oversized) {
      screen.notice(
        'warning',
        `${serverName(this.deps.backend)} truncated the prompt: about ${formatTokens(truncation.sentTokens)} tokens were sent, the model saw ${formatTokens(truncation.evaluatedTokens)} (num_ctx ${formatTokens(model.numCtx)}). The oldest messages were dropped without notice; /compact makes room.`,
      );
    }
    if (reply.doneReason === 'length') {
      const limit = replyLimitName(this.deps.backend.server);
      screen.notice('warning', `The reply hit its length limit (${limit}) and was cut.`);
    }
    const seconds = m.evalDurationNs / 1e9;
    const rate = seconds > 0 ? `${(m.evalCount / seconds).toFixed(1)} tok/s` : '';
    screen.store.update({ lastStats: [`${m.evalCount} tokens`, rate].filter(Boolean).join(' · ') });
    requests.refreshUsed();
  }

  /**
   * Keeps the model's measured chars per token for the next run. The state file opens here if it
   * is not open yet: a one-shot loads it after its reply, not before the first byte.
   */
  private async rememberCalibration(model: ConnectedModel): Promise<void> {
    const { appState, requests } = this.deps;
    await appState.open();
    const { name } = model;
    // The store writes (and fsyncs) the whole file: only when the ratio really moved.
    const remembered = appState.calibration(name);
    const ratio = requests.meter.charsPerToken;
    if (remembered === undefined || Math.abs(remembered - ratio) > remembered * 0.01) {
      appState.setCalibration(name, ratio);
    }
  }
}

/** A call as kept in the transcript and sent back: without the reader's `malformed` note. */
function storedToolCall({ malformed: _malformed, ...call }: ReceivedToolCall): ToolCall {
  return call;
}

/** How long a turn cancelled by Ctrl+C waits for its abandoned request to keep its partial reply. */
const ABANDONED_REPLY_GRACE_MS = 1000;

/** Resolves when `work` settles (either way) or after `ms`, whichever is first. */
function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([work.then(noop, noop), deadline]).finally(() => clearTimeout(timer));
}

function noop(): void {}
