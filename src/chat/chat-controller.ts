import { BUILTIN_COMMANDS } from '../commands/builtin-commands.js';
import type { CommandHost, NoticeLevel, ThinkSetting, ToolState } from '../commands/command-host.js';
import { dispatchCommand } from '../commands/dispatch.js';
import { type Budgets, resolveBudgets } from '../compaction/budgets.js';
import { compactConversation } from '../compaction/compactor.js';
import { type ContextBreakdown, contextBreakdown } from '../compaction/context-breakdown.js';
import type { CompactionRecord } from '../compaction/record.js';
import { formatCompactionReport } from '../compaction/report.js';
import { isCompactionDue } from '../compaction/trigger.js';
import type { AppState } from '../config/app-state.js';
import type { Config } from '../config/schema.js';
import { formatTokens } from '../conversation/format-tokens.js';
import type { Message, ToolCall, WireMessage } from '../conversation/message.js';
import { buildModelView } from '../conversation/model-view.js';
import { DEFAULT_CHARS_PER_TOKEN } from '../conversation/token-estimate.js';
import type { OllamaClient } from '../ollama/client.js';
import { AbortedError, OllamaError, UnsupportedCapabilityError } from '../ollama/errors.js';
import type { ChatDelta, ChatReply, InstalledModel } from '../ollama/interfaces.js';
import { capToolOutput } from '../tools/cap-output.js';
import { type ConfirmAnswer, createConfirmationPolicy, executeToolCall } from '../tools/execute.js';
import type { ToolRegistry } from '../tools/registry.js';
import { runToolLoop } from '../tools/tool-loop.js';
import type { DisplayItem } from '../ui/items.js';
import { ContextMeter } from './context-meter.js';
import { chooseModel, type ModelSession, openModelSession } from './model-selection.js';
import { ReplyPresenter } from './reply-presenter.js';
import { createStore, type Store } from './store.js';
import { resolveSummarizer, type SummarizerTarget } from './summarizer.js';
import { type ChatViewState, type Dialog, initialViewState } from './view-state.js';

/** What the controller needs from the outside world; tests pass fakes or an emulator-backed client. */
export interface ChatControllerDeps {
  client: OllamaClient;
  config: Config;
  appState: AppState;
  tools: ToolRegistry;
  cwd: string;
  /** `-m` and `--num-ctx` from the command line. */
  flags: { model?: string; numCtx?: number };
  /** The screen state to write to (the app may render it before the controller exists). */
  store?: Store<ChatViewState>;
  /** Called once when the user quits. */
  onExit: () => void;
  /** Sees every streamed chunk (one-shot mode prints them as they come). */
  onReplyDelta?: (delta: ChatDelta) => void;
  /** Answers tool confirmations without asking (one-shot mode: decline, or approve with --yes). */
  autoConfirm?: 'yes' | 'no';
  /**
   * False in one-shot mode: nobody can answer a dialog or press Enter to retry, so a failed
   * compaction is an error instead of a question.
   */
  interactive?: boolean;
  now?: () => Date;
}

type CompactionTrigger = 'manual' | 'auto';

/**
 * Owns one chat: the append-only transcript, compaction records, the model session, and the
 * screen state. Components render `store` and call the intent methods (`submit`, `interrupt`,
 * `answerDialog`); every Ollama call, tool run and compaction goes through here.
 */
export class ChatController implements CommandHost {
  readonly store: Store<ChatViewState>;
  private transcript: Message[] = [];
  private records: CompactionRecord[] = [];
  private session: ModelSession | undefined;
  private summarizer: SummarizerTarget | undefined;
  private nextMessageId = 1;
  private nextItemId = 1;
  private turn = 0;
  private systemPrompt: string | undefined;
  private ollamaOptions: Record<string, unknown>;
  private thinkSetting: ThinkSetting | undefined;
  private readonly meter = new ContextMeter(DEFAULT_CHARS_PER_TOKEN);
  private readonly confirmation;
  private work: Promise<void> = Promise.resolve();
  private pending = 0;
  private abort: AbortController | undefined;
  private dialogAnswer: ((key: string) => void) | undefined;
  private autoPaused = false;
  private scaledBudgetsTold = false;
  private retryableTurn = false;
  /** A message typed while no model was reachable, sent by the next successful retry. */
  private unsent: string | undefined;
  private lastTool: { name: string; output: string } | undefined;
  private readonly now: () => Date;

  constructor(private readonly deps: ChatControllerDeps) {
    this.now = deps.now ?? (() => new Date());
    this.systemPrompt = deps.config.system;
    this.ollamaOptions = { ...deps.config.options };
    this.thinkSetting = deps.config.think;
    this.confirmation = createConfirmationPolicy(deps.config.tools.confirm);
    this.store = deps.store ?? createStore(initialViewState(deps.flags.model ?? deps.config.model));
  }

  // ── intents from the UI ──────────────────────────────────────────────────────────────────

  /**
   * Connects to the server and the model; failures are shown, and the next Enter retries.
   * `ready` (e.g. the markdown renderer loading) is awaited before any message is sent.
   */
  start(ready?: Promise<unknown>): Promise<void> {
    return this.enqueue(async () => {
      await Promise.all([this.connect(), ready]);
    });
  }

  /** Earlier inputs, oldest first, for Up/Down. */
  history(): readonly string[] {
    return this.deps.appState.inputHistory;
  }

  /** The user pressed Enter on `text` (already trimmed of the trailing newline). */
  submit(text: string): void {
    const trimmed = text.trim();
    if (this.store.get().dialog?.kind === 'tool-instruction') {
      this.answer(trimmed);
      return;
    }
    if (!trimmed) {
      this.retry();
      return;
    }
    this.deps.appState.pushHistory(text);
    void this.enqueue(async () => {
      if (!trimmed.startsWith('/')) return this.send(text);
      // Echoed like a message, so the output below it says what asked for it.
      this.push({ kind: 'user', id: this.itemId(), text: trimmed });
      await dispatchCommand(BUILTIN_COMMANDS, this, trimmed);
    });
  }

  /** Enter on an empty prompt: retries what failed (the connection, or the last turn), else nothing. */
  retry(): void {
    if (!this.session) {
      void this.enqueue(async () => {
        if (this.unsent !== undefined) await this.send(this.unsent);
        else await this.connect();
      });
    } else if (this.retryableTurn) void this.enqueue(() => this.runTurn());
  }

  /** Ctrl+C: cancels the reply, tool run or compaction in progress. Returns false when idle. */
  interrupt(): boolean {
    const dialog = this.store.get().dialog;
    if (dialog) {
      // Declines: an instruction dialog would otherwise send the letter "n" as the instruction.
      this.answer(dialog.kind === 'tool-instruction' ? '' : 'n');
      return true;
    }
    if (!this.abort) return false;
    this.abort.abort();
    return true;
  }

  /** Resolves when every submitted message and command has been handled. */
  idle(): Promise<void> {
    return this.work;
  }

  /** A key pressed while a dialog is open. */
  answerDialog(key: string): void {
    this.answer(key);
  }

  toggleThinking(): void {
    const showThinking = !this.store.get().showThinking;
    this.store.update({ showThinking });
    const last = [...this.transcript].reverse().find((m) => m.role === 'assistant' && m.thinking);
    if (showThinking && last?.thinking)
      this.push({ kind: 'thinking', id: this.itemId(), text: last.thinking, collapsed: false });
  }

  // ── CommandHost ──────────────────────────────────────────────────────────────────────────

  notice(level: NoticeLevel, text: string): void {
    this.push({ kind: 'notice', id: this.itemId(), level, text });
  }

  show(text: string): void {
    this.push({ kind: 'notice', id: this.itemId(), level: 'info', text });
  }

  exit(): void {
    this.abort?.abort();
    this.store.update({ exiting: true });
    this.deps.onExit();
  }

  clearConversation(): void {
    this.transcript = [];
    this.records = [];
    this.turn = 0;
    this.retryableTurn = false;
    this.autoPaused = false;
    this.lastTool = undefined;
    this.meter.reset(this.meter.charsPerToken);
    this.store.update({ used: 0 });
    this.notice('success', 'New conversation.');
  }

  get model(): string | undefined {
    return this.session?.name ?? this.store.get().model;
  }

  get numCtx(): number | undefined {
    return this.session?.numCtx;
  }

  listModels(): Promise<InstalledModel[]> {
    return this.deps.client.listModels();
  }

  async switchModel(name: string): Promise<void> {
    try {
      await this.openSession(name);
      this.notice('success', `Switched to ${name} (num_ctx ${formatTokens(this.session!.numCtx)}).`);
    } catch (error) {
      this.notice('error', this.describeError(error));
    }
  }

  get system(): string | undefined {
    return this.systemPrompt;
  }

  setSystem(text: string | undefined): void {
    this.systemPrompt = text;
    // The server's last count was for the old system prompt: estimate the new view instead.
    this.meter.reset(this.meter.charsPerToken);
    this.refreshUsed();
  }

  get options(): Readonly<Record<string, unknown>> {
    return this.ollamaOptions;
  }

  async setOption(name: string, value: unknown): Promise<void> {
    this.ollamaOptions = { ...this.ollamaOptions, [name]: value };
    if (name === 'num_ctx' && this.session) {
      const trained = this.session.info.trainedContext;
      const numCtx = trained ? Math.min(Number(value), trained) : Number(value);
      if (trained && Number(value) > trained) {
        this.notice(
          'warning',
          `${this.session.name} was trained on ${formatTokens(trained)} tokens; num_ctx capped to it.`,
        );
      }
      this.session = { ...this.session, numCtx, numCtxSource: '/set' };
      if (this.summarizer && !this.deps.config.compaction.model) this.summarizer = undefined;
      this.scaledBudgetsTold = false;
      this.store.update({ numCtx });
      this.refreshUsed();
    }
  }

  get think(): ThinkSetting | undefined {
    return this.thinkSetting;
  }

  get supportsThinking(): boolean {
    return this.session?.info.capabilities.includes('thinking') ?? false;
  }

  setThink(value: ThinkSetting): void {
    this.thinkSetting = value;
  }

  async compact(focus: string | undefined): Promise<void> {
    // Called from a command, which already runs inside the work queue.
    await this.compactWithRetry('manual', focus);
  }

  get compaction(): CompactionRecord | undefined {
    return this.records.at(-1);
  }

  contextBreakdown(): ContextBreakdown | undefined {
    if (!this.session) return undefined;
    return contextBreakdown({
      system: this.systemPrompt,
      record: this.compaction,
      transcript: this.transcript,
      budgets: this.budgets(),
      charsPerToken: this.meter.charsPerToken,
    });
  }

  tools(): ToolState[] {
    return this.deps.tools.list().map((t) => ({
      name: t.tool.name,
      description: t.tool.description,
      enabled: t.enabled,
      needsConfirmation: this.confirmation.needsConfirmation(t.tool.name),
    }));
  }

  setToolEnabled(name: string, enabled: boolean): boolean {
    return this.deps.tools.setEnabled(name, enabled);
  }

  lastToolOutput(): { name: string; output: string } | undefined {
    return this.lastTool;
  }

  // ── connection ───────────────────────────────────────────────────────────────────────────

  private async connect(): Promise<void> {
    const { client, config, appState, flags } = this.deps;
    this.store.update({ busy: `connecting to ${client.host}…` });
    try {
      const name = await chooseModel(
        { flag: flags.model, config: config.model, lastUsed: appState.lastModel },
        () => client.listModels(),
      );
      await this.openSession(name);
      const session = this.session!;
      this.push({
        kind: 'banner',
        id: this.itemId(),
        model: session.name,
        host: client.host,
        numCtx: session.numCtx,
      });
      if (session.cappedFrom) {
        this.notice(
          'warning',
          `num_ctx ${formatTokens(session.cappedFrom)} is more than ${session.name} was trained on; using ${formatTokens(session.numCtx)}.`,
        );
      }
    } catch (error) {
      this.notice('error', this.describeError(error));
      if (this.interactive) {
        const kept = this.unsent !== undefined ? ' Your message is kept and will be sent then.' : '';
        this.notice('info', `Press Enter to try again.${kept}`);
      }
    } finally {
      this.store.update({ busy: undefined });
    }
  }

  private async openSession(name: string): Promise<void> {
    const { client, appState, flags } = this.deps;
    const configNumCtx =
      typeof this.ollamaOptions.num_ctx === 'number' ? this.ollamaOptions.num_ctx : undefined;
    const session = await openModelSession(client, name, { flag: flags.numCtx, config: configNumCtx });
    this.session = session;
    this.summarizer = undefined;
    this.scaledBudgetsTold = false;
    this.meter.reset(appState.calibration(name) ?? DEFAULT_CHARS_PER_TOKEN);
    appState.lastModel = name;
    this.store.update({ model: name, numCtx: session.numCtx });
    this.refreshUsed();
  }

  // ── a turn: send, stream, tools ──────────────────────────────────────────────────────────

  private async send(text: string): Promise<void> {
    if (!this.session) {
      // Kept until the server answers: an empty Enter sends it then (nothing typed is lost).
      this.unsent = text;
      await this.connect();
      if (!this.session) return;
    }
    this.unsent = undefined;
    this.turn += 1;
    this.appendMessage({ role: 'user', content: text });
    this.retryableTurn = false;
    // Pre-flight: make room before sending, so Ollama never has to drop anything silently. The
    // message is appended first so the plan keeps it as the newest turn and may summarize the one before.
    if (this.compactionDue()) await this.compactWithRetry('auto', undefined);
    this.push({ kind: 'user', id: this.itemId(), text });
    await this.runTurn();
  }

  /** Runs the current turn to its end: replies and tool rounds, until an answer or a stop. */
  private async runTurn(): Promise<void> {
    this.retryableTurn = false;
    const abort = new AbortController();
    this.abort = abort;
    try {
      const outcome = await runToolLoop({
        requestReply: () => this.streamReply(abort.signal),
        execute: (call) => this.runTool(call, abort.signal),
        maxSteps: this.deps.config.tools.max_steps,
        signal: abort.signal,
      });
      if (outcome.stop === 'max-steps') {
        this.notice(
          'warning',
          `Stopped after ${this.deps.config.tools.max_steps} tool rounds (tools.max_steps). Send a message to continue.`,
        );
      }
    } catch (error) {
      if (!(error instanceof TurnStopped)) this.notice('error', this.describeError(error));
    } finally {
      this.abort = undefined;
      this.store.update({ busy: undefined, live: undefined });
    }
    this.refreshUsed();
    if (this.compactionDue()) await this.compactWithRetry('auto', undefined);
  }

  /** Streams one assistant reply into the transcript; returns its tool calls. */
  private async streamReply(signal: AbortSignal): Promise<{ toolCalls: ToolCall[] }> {
    const session = this.session!;
    const view = this.modelView();
    const presenter = new ReplyPresenter(
      ({ commit, live }) =>
        this.store.update((s) => ({ items: commit.length ? [...s.items, ...commit] : s.items, live })),
      () => this.itemId(),
    );
    this.store.update({ busy: `waiting for ${session.name}…`, live: { text: '', thinking: '' } });
    let reply: ChatReply;
    try {
      reply = await this.deps.client.chat(this.chatRequest(view), {
        signal,
        onDelta: (delta) => {
          if (this.store.get().busy !== 'streaming…') this.store.update({ busy: 'streaming…' });
          presenter.push(delta);
          this.deps.onReplyDelta?.(delta);
        },
      });
    } catch (error) {
      return this.recoverFromReplyError(error, presenter, signal);
    }
    presenter.finish();
    this.appendMessage({
      role: 'assistant',
      content: reply.content,
      thinking: reply.thinking || undefined,
      tool_calls: reply.toolCalls.length ? reply.toolCalls : undefined,
    });
    this.afterReply(view, reply);
    return { toolCalls: reply.toolCalls };
  }

  /** A failed or cancelled reply keeps what arrived, marked, and ends the turn. */
  private async recoverFromReplyError(
    error: unknown,
    presenter: ReplyPresenter,
    signal: AbortSignal,
  ): Promise<{ toolCalls: ToolCall[] }> {
    if (error instanceof UnsupportedCapabilityError && error.capability === 'tools' && this.session) {
      // The server knows better than /api/show: stop offering tools to this model and ask again.
      this.session = {
        ...this.session,
        info: {
          ...this.session.info,
          capabilities: this.session.info.capabilities.filter((c) => c !== 'tools'),
        },
      };
      this.notice('info', `${this.session.name} does not support tools; continuing without them.`);
      return this.streamReply(signal);
    }
    const partial = error instanceof OllamaError ? error.partial : undefined;
    const hasPartial = Boolean(partial?.content || partial?.thinking);
    presenter.finish({ interrupted: hasPartial });
    if (hasPartial) {
      this.appendMessage({
        role: 'assistant',
        content: partial!.content,
        thinking: partial!.thinking || undefined,
        interrupted: true,
      });
    }
    if (error instanceof AbortedError || signal.aborted) {
      this.notice('warning', hasPartial ? 'Reply interrupted; the partial reply is kept.' : 'Cancelled.');
    } else {
      this.notice('error', this.describeError(error));
      if (!hasPartial && this.interactive) {
        this.retryableTurn = true;
        this.notice('info', 'Press Enter on an empty prompt to retry.');
      }
    }
    throw new TurnStopped();
  }

  private afterReply(view: WireMessage[], reply: ChatReply): void {
    const session = this.session!;
    const m = reply.metrics;
    const truncation = this.meter.recordReply(
      {
        view,
        promptEvalCount: m.promptEvalCount,
        evalCount: m.evalCount,
        transcriptLength: this.transcript.length,
        recordCount: this.records.length,
      },
      session.numCtx,
    );
    // The store writes (and fsyncs) the whole file: only when the ratio really moved.
    const remembered = this.deps.appState.calibration(session.name);
    if (remembered === undefined || Math.abs(remembered - this.meter.charsPerToken) > remembered * 0.01) {
      this.deps.appState.setCalibration(session.name, this.meter.charsPerToken);
    }
    if (truncation) {
      this.notice(
        'warning',
        `Ollama truncated the prompt: about ${formatTokens(truncation.sentTokens)} tokens were sent, the model saw ${formatTokens(truncation.evaluatedTokens)} (num_ctx ${formatTokens(session.numCtx)}). The oldest messages were dropped without notice; /compact makes room.`,
      );
    }
    if (reply.doneReason === 'length') {
      this.notice('warning', 'The reply hit its length limit (num_predict) and was cut.');
    }
    const seconds = m.evalDurationNs / 1e9;
    const rate = seconds > 0 ? `${(m.evalCount / seconds).toFixed(1)} tok/s` : '';
    this.store.update({ lastStats: [`${m.evalCount} tokens`, rate].filter(Boolean).join(' · ') });
    this.refreshUsed();
  }

  private async runTool(call: ToolCall, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new TurnStopped();
    this.store.update({ busy: `running ${call.function.name}…`, live: undefined });
    const execution = await executeToolCall(call, {
      registry: this.deps.tools,
      ctx: {
        cwd: this.deps.cwd,
        allowedPaths: this.deps.config.tools.allowed_paths,
        signal,
        commandTimeoutMs: this.deps.config.tools.command_timeout * 1000,
        now: this.now,
      },
      needsConfirmation: (name) => this.confirmation.needsConfirmation(name),
      confirm: (request) => this.confirmTool(request),
    });
    this.appendMessage({
      role: 'tool',
      content: execution.outcome.output,
      tool_name: execution.name,
      tool_args: execution.args,
      tool_summary: execution.summary,
    });
    this.lastTool = { name: execution.name, output: execution.outcome.output };
    this.push({
      kind: 'tool',
      id: this.itemId(),
      name: execution.name,
      keyArgument: execution.keyArgument,
      summary: execution.summary,
      ok: execution.outcome.ok,
    });
    if (signal.aborted) throw new TurnStopped();
  }

  private async confirmTool(request: { tool: string; keyArgument: string }): Promise<ConfirmAnswer> {
    if (this.deps.autoConfirm) return { kind: this.deps.autoConfirm };
    const key = await this.ask({
      kind: 'confirm-tool',
      question: `Allow ${request.tool} ${request.keyArgument}?`,
      choices: '[y]es / [n]o / [a]lways for this session / [i]nstruct',
    });
    switch (key.toLowerCase()) {
      case 'y':
        return { kind: 'yes' };
      case 'a':
        this.confirmation.allowAlways(request.tool);
        return { kind: 'always' };
      case 'i': {
        const text = await this.ask({
          kind: 'tool-instruction',
          question: 'Type an instruction for the model instead, then Enter',
          choices: 'Esc/Ctrl+C: decline',
        });
        // Esc, Ctrl+C or an empty Enter declines rather than sending an empty instruction.
        return text.trim() ? { kind: 'instruct', text } : { kind: 'no' };
      }
      default:
        return { kind: 'no' };
    }
  }

  // ── compaction ───────────────────────────────────────────────────────────────────────────

  private compactionDue(): boolean {
    if (!this.session || !this.deps.config.compaction.auto || this.autoPaused) return false;
    return isCompactionDue({
      used: this.currentUsed(),
      reserve: this.budgets().reserve,
      numCtx: this.session.numCtx,
    });
  }

  /** Compacts; on failure asks `Retry compaction? (y/n)` until it succeeds or the user says no. */
  private async compactWithRetry(trigger: CompactionTrigger, focus: string | undefined): Promise<void> {
    for (;;) {
      const result = await this.compactOnce(trigger, focus);
      if (result !== 'failed') return;
      const key = await this.ask({ kind: 'retry-compaction', question: 'Retry compaction?', choices: 'y/n' });
      if (key.toLowerCase() !== 'y') return;
    }
  }

  private async compactOnce(
    trigger: CompactionTrigger,
    focus: string | undefined,
  ): Promise<'done' | 'nothing' | 'failed' | 'cancelled'> {
    const session = this.session;
    if (!session) {
      this.notice('error', 'Not connected to a model yet.');
      return 'nothing';
    }
    const abort = new AbortController();
    this.abort = abort;
    this.store.update({ busy: trigger === 'auto' ? 'compacting (context nearly full)…' : 'compacting…' });
    try {
      this.summarizer ??= await resolveSummarizer(
        this.deps.client,
        session,
        this.deps.config.compaction.model,
      );
      const { compaction } = this.deps.config;
      const outcome = await compactConversation({
        transcript: this.transcript,
        previous: this.compaction,
        budgets: this.budgets(),
        system: this.systemPrompt,
        ask: this.summarizer.ask,
        summarizerNumCtx: this.summarizer.numCtx,
        model: this.summarizer.model,
        maxMessageChars: compaction.max_message_chars,
        rules: compaction.prompt ?? undefined,
        focus,
        charsPerToken: this.meter.charsPerToken,
        now: this.now,
        signal: abort.signal,
      });
      if (outcome.ok) {
        this.records.push(outcome.record);
        this.autoPaused = false;
        this.notice('success', formatCompactionReport(outcome.result));
        this.refreshUsed();
        return 'done';
      }
      if (outcome.reason === 'nothing-to-compact') {
        // Not a failure, so automatic mode stays on: the next turn gives the plan something to compact
        // (planning is cheap and asks no model; pausing here left long chats to silent truncation).
        if (trigger === 'manual') this.notice('info', 'Nothing to compact.');
        return 'nothing';
      }
      if (abort.signal.aborted) {
        this.notice('warning', 'Compaction cancelled; nothing was changed.');
        return 'cancelled';
      }
      this.failCompaction(trigger, outcome.message ?? 'unknown error');
      return 'failed';
    } catch (error) {
      if (abort.signal.aborted) {
        this.notice('warning', 'Compaction cancelled; nothing was changed.');
        return 'cancelled';
      }
      this.failCompaction(trigger, this.describeError(error));
      return 'failed';
    } finally {
      this.abort = undefined;
      this.store.update({ busy: undefined });
    }
  }

  private failCompaction(trigger: CompactionTrigger, reason: string): void {
    // After an automatic failure, automatic mode waits for a manual /compact or the next success.
    if (trigger === 'auto') this.autoPaused = true;
    // No ⚠ in the text: the warning level draws it, so the screen reads `⚠ Compaction failed: …`.
    this.notice(this.interactive ? 'warning' : 'error', `Compaction failed: ${reason}`);
  }

  private get interactive(): boolean {
    return this.deps.interactive ?? true;
  }

  private budgets(): Budgets {
    const { reserve, keep_recent, summary } = this.deps.config.compaction;
    const budgets = resolveBudgets(this.session!.numCtx, { reserve, keep_recent, summary });
    if (budgets.scaled && !this.scaledBudgetsTold) {
      this.scaledBudgetsTold = true;
      this.notice(
        'info',
        `num_ctx ${formatTokens(budgets.numCtx)} is small for the configured budgets; scaled to reserve ${formatTokens(budgets.reserve)}, keep_recent ${formatTokens(budgets.keepRecent)}, summary ${formatTokens(budgets.summary)}.`,
      );
    }
    return budgets;
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────

  private modelView(): WireMessage[] {
    const max = this.deps.config.tools.max_output_chars;
    return buildModelView({
      system: this.systemPrompt,
      record: this.compaction,
      transcript: this.transcript,
      toolContent: (m) => capToolOutput(m.content, max),
    });
  }

  private chatRequest(view: WireMessage[]) {
    const session = this.session!;
    const caps = session.info.capabilities;
    const tools = caps.includes('tools') ? this.deps.tools.schemas() : [];
    return {
      model: session.name,
      messages: view,
      options: { ...this.ollamaOptions, num_ctx: session.numCtx },
      ...(caps.includes('thinking') && this.thinkSetting !== undefined ? { think: this.thinkSetting } : {}),
      ...(tools.length ? { tools } : {}),
    };
  }

  private currentUsed(): number {
    return this.meter.used(() => this.modelView(), this.transcript, this.records.length);
  }

  private refreshUsed(): void {
    if (this.session) this.store.update({ used: this.currentUsed() });
  }

  private appendMessage(message: Omit<Message, 'id' | 'turn' | 'at'>): void {
    this.transcript.push({
      ...message,
      id: this.nextMessageId++,
      turn: this.turn,
      at: this.now().toISOString(),
    });
  }

  private push(item: DisplayItem): void {
    this.store.update((s) => ({ items: [...s.items, item] }));
  }

  private itemId(): string {
    return `i${this.nextItemId++}`;
  }

  private describeError(error: unknown): string {
    if (error instanceof Error) return error.message;
    return String(error);
  }

  /** Opens a dialog and resolves with the key (or text) that answers it. */
  private ask(dialog: Dialog): Promise<string> {
    if (!this.interactive) return Promise.resolve('n');
    this.store.update({ dialog });
    return new Promise((resolve) => {
      this.dialogAnswer = resolve;
    });
  }

  private answer(key: string): void {
    const resolve = this.dialogAnswer;
    if (!resolve) return;
    this.dialogAnswer = undefined;
    this.store.update({ dialog: undefined });
    resolve(key);
  }

  /** Runs tasks one at a time, in order: messages typed while busy wait their turn. */
  private enqueue(task: () => Promise<void>): Promise<void> {
    this.pending += 1;
    this.store.update({ queued: Math.max(0, this.pending - 1) });
    const run = this.work.then(task).finally(() => {
      this.pending -= 1;
      this.store.update({ queued: Math.max(0, this.pending - 1) });
    });
    this.work = run.catch(() => undefined);
    return run;
  }
}

/** Ends the current turn quietly: the reason has already been shown. */
class TurnStopped extends Error {}
