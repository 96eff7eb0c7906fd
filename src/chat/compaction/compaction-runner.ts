import type { ChatBackend } from '../../backend/chat-backend.js';
import type { CompactionCommands } from '../../commands/command-host.js';
import type { Budgets } from '../../compaction/budgets.js';
import { compactConversation } from '../../compaction/compactor.js';
import { type ContextBreakdown, contextBreakdown } from '../../compaction/context-breakdown.js';
import { formatCompactionReport } from '../../compaction/report.js';
import { collectToolEntries } from '../../compaction/tool-entries.js';
import { isCompactionDue } from '../../compaction/trigger.js';
import { compactorSettings } from '../../config/compaction-settings.js';
import type { Config } from '../../config/schema.js';
import type { CompactionRecord } from '../../conversation/compaction-record.js';
import type { Conversation } from '../../conversation/conversation.js';
import { formatTokens } from '../../conversation/format-tokens.js';
import type { CompactionFailure } from '../../sessions/session-recorder.js';
import { describeError } from '../../text/describe-error.js';
import type { ModelSettings } from '../request/model-settings.js';
import type { RequestBuilder } from '../request/request-builder.js';
import type { RequestPlan } from '../request/request-plan.js';
import type { AbortSlot } from '../state/abort-slot.js';
import type { AskDialog } from '../state/dialog-queue.js';
import type { ScreenLog } from '../state/screen-log.js';
import { resolveSummarizer, type SummarizerTarget } from './summarizer.js';

/** How one compaction attempt ended. */
type CompactionEnd = 'done' | 'nothing' | 'failed' | 'unfixable' | 'until-next-turn' | 'cancelled';

/**
 * What the budget gate came to: `ready` (room made, or none needed), `failed` (a compaction
 * failed and said so; the request may still go), `cancelled` (the user cancelled it: it must not).
 */
export interface GateResult {
  end: 'ready' | 'failed' | 'cancelled';
  /**
   * The plan the gate weighed and found not due: the request to send as it is. None after a
   * compaction ran (the chat moved: the request is planned, and weighed, again).
   */
  plan?: RequestPlan;
}

/** Who asked for a compaction: the user (`/compact`) or the trigger. */
export type CompactionTrigger = 'manual' | 'auto';

/** What the compaction runner works with. */
export interface CompactionRunnerDeps {
  backend: ChatBackend;
  config: Config['compaction'];
  conversation: Conversation;
  settings: ModelSettings;
  requests: RequestBuilder;
  screen: ScreenLog;
  ask: AskDialog;
  abort: AbortSlot;
  /** False in one-shot mode: a failure is an error, not a warning followed by a question. */
  interactive: boolean;
  now: () => Date;
  /** Told of every attempt that changed nothing, cancelled ones too (the session records it; successes arrive as records). */
  onFailure?: (failure: CompactionFailure) => void;
  /** Told when automatic mode pauses or resumes (the session records it, so a resume decides alike). */
  onPausedChange?: (paused: boolean) => void;
}

/**
 * Runs compaction against the live chat: decides when it is due, resolves the summarizer, applies
 * a successful result, and pauses automatic mode after an automatic failure.
 */
export class CompactionRunner implements CompactionCommands {
  private summarizer: SummarizerTarget | undefined;
  private autoPaused = false;
  /**
   * Where the newest turn started when a compaction failed in a way no retry fixes: not tried
   * again until a new turn starts (then the plan differs: that turn can be folded).
   */
  private unfixableTurn: number | undefined;
  private scaledBudgetsTold = false;

  constructor(private readonly deps: CompactionRunnerDeps) {}

  /** A new model: its summarizer and its budgets are decided afresh. */
  modelChanged(): void {
    this.summarizer = undefined;
    this.scaledBudgetsTold = false;
  }

  /** A new `num_ctx` for the same model: a summarizer that is the chat model must send it too. */
  numCtxChanged(): void {
    if (this.summarizer && !this.deps.config.model) this.summarizer = undefined;
    this.scaledBudgetsTold = false;
  }

  /** A new conversation: automatic mode starts again. */
  reset(): void {
    this.unfixableTurn = undefined;
    this.setPaused(false, false);
  }

  /** A resumed session's automatic mode, as it was saved (not a change: nobody is told). */
  restorePaused(paused: boolean): void {
    this.setPaused(paused, false);
  }

  /**
   * Whether automatic compaction should run now (DESIGN §3). Not for a turn the user sent anyway
   * over the window: nothing can make it fit, and trying would fail and pause automatic mode.
   */
  due(plan = this.deps.requests.plan()): boolean {
    if (!plan || !this.deps.config.auto || this.autoPaused) return false;
    if (plan.oversized || this.unfixableTurn === plan.turnStart) return false;
    return isCompactionDue({
      used: this.deps.requests.used(plan),
      reserve: this.tellScaled(plan.budgets).reserve,
      numCtx: plan.model.numCtx,
    });
  }

  /**
   * The budget gate every request to the model passes: compacts first when the request would
   * not leave the reserve free (DESIGN §3), so Ollama never has to cut it silently.
   * `saysCancel: false`: the caller, holding its request back, says so itself (one line, below its message).
   */
  async makeRoom(options: { saysCancel?: boolean } = {}): Promise<GateResult> {
    const plan = this.deps.requests.plan();
    if (!this.due(plan)) return { end: 'ready', plan };
    const end = await this.attempt('auto', undefined, options.saysCancel ?? true);
    if (end === 'cancelled') return { end: 'cancelled' };
    return { end: end === 'failed' || end === 'unfixable' || end === 'until-next-turn' ? 'failed' : 'ready' };
  }

  // ── CompactionCommands ───────────────────────────────────────────────────────────────────

  /** `/compact`: called from a command, which already runs inside the work queue. */
  async compact(focus: string | undefined): Promise<void> {
    await this.run('manual', focus);
  }

  get record(): CompactionRecord | undefined {
    return this.deps.conversation.latestRecord;
  }

  compactedToolCalls(): string[] {
    const upto = this.record?.upto ?? 0;
    return collectToolEntries(this.deps.conversation.transcript.slice(0, upto));
  }

  breakdown(): ContextBreakdown | undefined {
    const { settings, requests, conversation } = this.deps;
    const plan = requests.plan();
    if (!plan) return undefined;
    // A template that renders no tool definitions (llama-server's chatml): the server's count, and
    // so the window, holds none of them.
    const unrendered = requests.meter.rendersTools === false;
    return contextBreakdown({
      ...settings.systemSections(),
      record: this.record,
      transcript: conversation.transcript,
      view: plan.view,
      budgets: this.tellScaled(plan.budgets),
      charsPerToken: plan.charsPerToken,
      toolContent: requests.toolContent,
      toolDefinitionTokens: unrendered ? 0 : plan.toolTokens,
      toolDefinitionSources: unrendered ? [] : requests.toolDefinitionTokensBySource(plan),
      used: requests.used(plan),
    });
  }

  /**
   * Compacts; on a failure a retry could fix, asks `Retry compaction? (y/n)` until it succeeds or
   * the user says no. An automatic run that ends failed pauses automatic mode, and says so —
   * except when only the newest turn stood in the way: pausing then left every later request to
   * be cut by the server; it is tried again once a new turn starts.
   */
  async run(trigger: CompactionTrigger, focus: string | undefined): Promise<boolean> {
    return (await this.attempt(trigger, focus)) === 'done';
  }

  /** `run`, with how it ended. */
  private async attempt(
    trigger: CompactionTrigger,
    focus: string | undefined,
    saysCancel = true,
  ): Promise<CompactionEnd> {
    for (;;) {
      const result = await this.compactOnce(trigger, focus, saysCancel);
      if (result === 'done') this.unloadSummarizer();
      if (result === 'failed') {
        const key = await this.deps.ask({
          kind: 'retry-compaction',
          question: 'Retry compaction?',
          choices: 'y/n',
        });
        if (key.toLowerCase() === 'y') continue;
      }
      if (trigger === 'auto' && (result === 'failed' || result === 'unfixable')) this.pause();
      return result;
    }
  }

  /**
   * `compaction.unload_after`: a summarizer that is another model than the chat's is freed after
   * its work, so the two do not share the GPU. In the background: the chat does not wait for it.
   */
  private unloadSummarizer(): void {
    const summarizer = this.summarizer?.model;
    if (!this.deps.config.unload_after || !summarizer || summarizer === this.deps.settings.connected?.name)
      return;
    this.deps.backend.unloadModel(summarizer).catch((error: unknown) => {
      this.deps.screen.notice('warning', `Could not unload ${summarizer}: ${describeError(error)}`);
    });
  }

  /** Whether the config lets ochat compact on its own (`compaction.auto`). */
  get automatic(): boolean {
    return this.deps.config.auto;
  }

  /** Whether automatic compaction waits for a successful `/compact` (after an automatic failure). */
  get paused(): boolean {
    return this.autoPaused;
  }

  private pause(): void {
    if (this.autoPaused) return;
    this.setPaused(true);
    if (!this.deps.interactive) return;
    this.deps.screen.notice(
      'warning',
      'Automatic compaction is paused until a /compact succeeds. Until then the context keeps growing, and a request past num_ctx is refused by Ollama (never cut): your message is kept to send again.',
    );
  }

  private setPaused(paused: boolean, tell = true): void {
    const changed = paused !== this.autoPaused;
    this.autoPaused = paused;
    this.deps.screen.store.update({ autoCompactPaused: paused });
    if (changed && tell) this.deps.onPausedChange?.(paused);
  }

  /**
   * The plan's budgets, passed through; tells the user once when they had to be scaled down (not
   * on a one-shot's stderr: a single prompt has nothing to compact, and scripts read that stream).
   */
  tellScaled(budgets: Budgets): Budgets {
    if (budgets.scaled && !this.scaledBudgetsTold && this.deps.interactive) {
      this.scaledBudgetsTold = true;
      this.deps.screen.notice(
        'info',
        `num_ctx ${formatTokens(budgets.numCtx)} is small for the configured budgets; scaled to reserve ${formatTokens(budgets.reserve)}, keep_recent ${formatTokens(budgets.keepRecent)}, summary ${formatTokens(budgets.summary)}.`,
      );
    }
    return budgets;
  }

  private async compactOnce(
    trigger: CompactionTrigger,
    focus: string | undefined,
    saysCancel: boolean,
  ): Promise<CompactionEnd> {
    const { backend, config, conversation, settings, requests, screen } = this.deps;
    const connected = settings.connected;
    const plan = requests.plan();
    if (!connected || !plan) {
      screen.notice('error', 'Not connected to a model yet.');
      return 'nothing';
    }
    const recallToCome = requests.recallTokensToCome(plan);
    const abort = this.deps.abort.begin();
    screen.store.update({ busy: trigger === 'auto' ? 'compacting (context nearly full)…' : 'compacting…' });
    try {
      // compaction.reuse_cache: the chat model summarizes by continuing the chat's request, cached at the server.
      const chatFrame =
        config.reuse_cache === 'auto' ? () => requests.chatFrame(settings.connected ?? connected) : undefined;
      this.summarizer ??= await resolveSummarizer(
        backend,
        connected,
        config.model,
        () => settings.keepAlive,
        chatFrame,
      );
      const continuesChat = this.summarizer.continuesChat;
      const outcome = await compactConversation({
        transcript: conversation.transcript,
        previous: conversation.latestRecord,
        budgets: this.tellScaled(plan.budgets),
        ...settings.systemSections(),
        ask: this.summarizer.ask,
        summarizerNumCtx: this.summarizer.numCtx,
        model: this.summarizer.model,
        ...compactorSettings(config),
        focus,
        charsPerToken: plan.charsPerToken,
        toolContent: requests.toolContent,
        fit: plan.fit,
        shortened: requests.sentShortened,
        fixedTokens: plan.toolTokens,
        // Room for recall's definition, which the requests after the first compaction carry.
        joiningTokens: recallToCome,
        usedBefore: requests.used(plan),
        continuation: continuesChat ? (upto) => requests.chatContinuation(upto) : undefined,
        now: this.deps.now,
        signal: abort.signal,
      });
      if (outcome.ok) {
        conversation.addRecord(outcome.record);
        this.setPaused(false);
        // A cut summary lost words: a warning, not a plain success.
        const { result } = outcome;
        // Still over the window: say why, or 149% of 2k after a "success" reads as a bug.
        const stillOver =
          result.tokensAfter > result.numCtx && plan.oversized
            ? '; the message sent anyway stays whole, cut by Ollama, until the next turn compacts it'
            : '';
        screen.notice(
          result.cutTokens > 0 || result.endsLost > 0 ? 'warning' : 'success',
          formatCompactionReport(result) + stillOver,
        );
        requests.refreshUsed();
        return 'done';
      }
      if (outcome.reason === 'nothing-to-compact') {
        // Not a failure, so automatic mode stays on: the next turn gives the plan something to compact
        // (planning is cheap and asks no model; pausing here left long chats to silent truncation).
        if (trigger === 'manual') screen.notice('info', 'Nothing to compact.');
        return 'nothing';
      }
      if (abort.signal.aborted) return this.cancelled(trigger, focus, saysCancel);
      if (!outcome.retryable) {
        const later = outcome.nextTurn && config.auto;
        if (later) this.unfixableTurn = plan.turnStart;
        this.fail(
          trigger,
          focus,
          `${outcome.message}. Retrying would not help: the newest messages are kept verbatim and need that room. A larger window (/set num_ctx) or a new conversation (/clear) would.${later ? ' Automatic compaction tries again after the next message.' : ''}`,
        );
        return later ? 'until-next-turn' : 'unfixable';
      }
      this.fail(trigger, focus, outcome.message);
      return 'failed';
    } catch (error) {
      if (abort.signal.aborted) return this.cancelled(trigger, focus, saysCancel);
      this.fail(trigger, focus, describeError(error));
      return 'failed';
    } finally {
      this.deps.abort.end();
      screen.store.update({ busy: undefined });
    }
  }

  /** `says`: false when the caller tells it with what it means for the message held back. */
  private cancelled(trigger: CompactionTrigger, focus: string | undefined, says: boolean): 'cancelled' {
    this.deps.onFailure?.({
      trigger,
      reason: 'cancelled (Ctrl+C); nothing was changed',
      model: this.summarizer?.model,
      cancelled: true,
      ...(focus && { focus }),
    });
    if (says) this.deps.screen.notice('warning', 'Compaction cancelled; nothing was changed.');
    return 'cancelled';
  }

  private fail(trigger: CompactionTrigger, focus: string | undefined, reason: string): void {
    this.deps.onFailure?.({ trigger, reason, model: this.summarizer?.model, ...(focus && { focus }) });
    // No ⚠ in the text: the warning level draws it, so the screen reads `⚠ Compaction failed: …`.
    this.deps.screen.notice(this.deps.interactive ? 'warning' : 'error', `Compaction failed: ${reason}`);
  }
}
