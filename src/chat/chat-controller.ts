import { completeAttachmentPath } from '../attachments/path-completion.js';
import { prepareUserMessage } from '../attachments/prepare-message.js';
import { supportsVision } from '../backend/capabilities.js';
import type { InstalledModel, ModelInfo, ThinkSetting } from '../backend/interfaces.js';
import { BUILTIN_COMMANDS } from '../commands/builtin-commands.js';
import type { CompletionContext, CompletionEntry } from '../commands/command.js';
import type {
  CommandHost,
  NoticeLevel,
  SessionCommands,
  ToolApproval,
  ToolState,
} from '../commands/command-host.js';
import { dispatchCommand, findCommand, parseCommandLine } from '../commands/dispatch.js';
import { type ContextBreakdown, contextBreakdown } from '../compaction/context-breakdown.js';
import { collectToolEntries } from '../compaction/tool-entries.js';
import type { CompactionRecord } from '../conversation/compaction-record.js';
import { formatTokens } from '../conversation/format-tokens.js';
import type { Message, WireMessage } from '../conversation/message.js';
import { estimateMessageTokens } from '../conversation/token-estimate.js';
import { describeError } from '../text/describe-error.js';
import { assembleChat, type ChatControllerDeps, type ChatParts } from './chat-parts.js';
import { parseShellInput, type ShellInput, shellHint } from './shell-input.js';
import { createStore, type Store } from './store.js';
import { type ChatViewState, initialViewState } from './view-state.js';

/**
 * One chat: turns the UI's intents (`submit`, `retry`, `interrupt`, `answerDialog`) and slash
 * commands into work, run one at a time, and wires the parts that do it — the conversation, the
 * model context, the turn, tool and compaction runners — to one screen state, `store`.
 */
export class ChatController implements CommandHost {
  readonly store: Store<ChatViewState>;
  private readonly parts: ChatParts;
  /** A message typed while no model was reachable, sent by the next successful retry. */
  private unsent: string | undefined;
  /** Options changed by `/set` in this chat (the others in force come from the config). */
  private readonly optionsSetInChat = new Set<string>();
  /** The installed models as last listed, for Tab completion. */
  private installedModels: readonly string[] = [];

  constructor(private readonly deps: ChatControllerDeps) {
    this.store = deps.store ?? createStore(initialViewState(deps.flags.model ?? deps.config.model));
    this.parts = assembleChat(deps, this.store);
  }

  // ── intents from the UI ──────────────────────────────────────────────────────────────────

  /**
   * Connects to the server and the model; failures are shown, and the next Enter retries.
   * `ready` (e.g. the markdown renderer loading) is awaited before any message is sent.
   */
  start(ready?: Promise<unknown>): Promise<void> {
    return this.parts.queue.enqueue(async () => {
      // The resumed session's settings (model, num_ctx) decide what connecting opens.
      if (this.deps.resume !== undefined) await this.parts.sessions.resume(this.deps.resume);
      await Promise.all([this.connect(), ready]);
      // Tab completes `/model <name>` from this list; nobody types in one-shot mode.
      // In the background, outside the abort slot: Ctrl+C is for the user's own work.
      if (this.parts.model.session && (this.deps.interactive ?? true)) {
        this.deps.backend.listModels().then(
          (models) => {
            this.installedModels = models.map((m) => m.name);
          },
          () => {},
        );
      }
    });
  }

  /** What Tab completion of command arguments may read (synchronously, from what is known). */
  completionContext(): CompletionContext {
    return {
      models: this.installedModels,
      tools: this.deps.tools.list().map((t) => ({ name: t.tool.name, description: t.tool.description })),
      approvals: this.toolApprovals(),
    };
  }

  /** Paths for Tab after `@`, inside the directories attachments may come from. */
  completeAttachmentPath(partial: string): CompletionEntry[] {
    return completeAttachmentPath(partial, {
      cwd: this.deps.cwd,
      allowedPaths: this.deps.config.tools.allowed_paths,
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
      this.parts.dialogs.answer(trimmed);
      return;
    }
    if (!trimmed) {
      this.retry();
      return;
    }
    // A one-shot prompt (or a pipe's worth of stdin) is not something to recall with ↑.
    if (this.deps.interactive !== false) this.deps.appState.pushHistory(text);
    // Only what the user types runs as a command: never a one-shot prompt (piped text).
    const shell = this.deps.interactive !== false ? parseShellInput(text) : undefined;
    if (shell) {
      this.submitShellInput(shell);
      return;
    }
    const runCommand = () => {
      // Echoed like a message, so the output below it says what asked for it.
      this.parts.screen.push({ kind: 'user', id: this.parts.screen.itemId(), text: trimmed });
      return dispatchCommand(BUILTIN_COMMANDS, this, trimmed);
    };
    if (trimmed.startsWith('/') && runsWhileBusy(trimmed)) {
      void runCommand();
      return;
    }
    void this.parts.queue.enqueue(async () => {
      if (!trimmed.startsWith('/')) return this.send(text);
      // `//` escapes the slash: the message is sent with one `/` (e.g. `//etc/hosts — what is it?`).
      if (trimmed.startsWith('//')) return this.send(text.replace('//', '/'));
      await runCommand();
    });
  }

  /** `!command` runs (in turn, like a message); `!` alone explains; `\!` sends a message. */
  private submitShellInput(input: ShellInput): void {
    if (input.kind === 'hint') this.notice('info', shellHint(this.deps.cwd));
    else if (input.kind === 'message') void this.parts.queue.enqueue(() => this.send(input.text));
    else void this.parts.queue.enqueue(() => this.parts.shell.run(input.command));
  }

  /** Enter on an empty prompt: retries what failed (the connection, or the last turn), else nothing. */
  retry(): void {
    if (!this.parts.model.session) {
      void this.parts.queue.enqueue(async () => {
        if (this.unsent !== undefined) await this.send(this.unsent);
        else await this.connect();
      });
    } else if (this.parts.turns.retryable) void this.parts.queue.enqueue(() => this.parts.turns.run());
  }

  /** Ctrl+C: cancels the reply, tool run or compaction in progress. Returns false when idle. */
  interrupt(): boolean {
    const dialog = this.store.get().dialog;
    if (dialog) {
      // Declines: an instruction dialog would otherwise send the letter "n" as the instruction.
      this.parts.dialogs.answer(dialog.kind === 'tool-instruction' ? '' : 'n');
      return true;
    }
    return this.parts.abort.cancel();
  }

  /** Resolves when every submitted message and command has been handled. */
  idle(): Promise<void> {
    return this.parts.queue.idle();
  }

  /** A key pressed while a dialog is open. */
  answerDialog(key: string): void {
    this.parts.dialogs.answer(key);
  }

  /** Ctrl+T: shows the thinking of every reply, earlier and later ones, expanded or collapsed. */
  toggleThinking(): void {
    this.store.update((s) => ({ showThinking: !s.showThinking }));
  }

  // ── CommandHost ──────────────────────────────────────────────────────────────────────────

  notice(level: NoticeLevel, text: string): void {
    this.parts.screen.notice(level, text);
  }

  show(text: string): void {
    this.parts.screen.notice('info', text);
  }

  exit(): void {
    this.parts.abort.cancel();
    this.parts.keeper.close();
    this.store.update({ exiting: true });
    this.deps.onExit();
  }

  clearConversation(): void {
    // First: what follows belongs to the new session, not to the one just closed.
    this.parts.keeper.startNew();
    this.parts.conversation.clear();
    this.parts.turns.forgetFailure();
    this.parts.compactions.reset();
    this.parts.toolRunner.reset();
    this.parts.model.resetMeter();
    // The last reply's speed belongs to the conversation that is gone.
    this.store.update({ used: 0, lastStats: undefined });
    this.notice('success', 'New conversation.');
  }

  get model(): string | undefined {
    return this.parts.model.session?.name ?? this.store.get().model;
  }

  get columns(): number {
    return this.deps.columns?.() ?? 80;
  }

  get numCtx(): number | undefined {
    return this.parts.model.session?.numCtx;
  }

  get numCtxSource(): string | undefined {
    return this.parts.model.session?.numCtxSource;
  }

  get modelInfo(): ModelInfo | undefined {
    return this.parts.model.session?.info;
  }

  async listModels(): Promise<InstalledModel[]> {
    const { signal } = this.parts.abort.begin();
    try {
      const models = await this.deps.backend.listModels(signal);
      this.installedModels = models.map((m) => m.name);
      return models;
    } finally {
      this.parts.abort.end();
    }
  }

  async switchModel(name: string): Promise<void> {
    const { signal } = this.parts.abort.begin();
    try {
      await this.parts.connector.open(name, signal);
      this.notice(
        'success',
        `Switched to ${name} (num_ctx ${formatTokens(this.parts.model.session!.numCtx)}).`,
      );
      const hasImages = this.parts.conversation.transcript.some((m) => m.images?.length);
      if (hasImages && !supportsVision(this.parts.model.session!.info)) {
        this.notice(
          'info',
          `${name} cannot see images: those attached earlier are left out of what it is sent.`,
        );
      }
    } catch (error) {
      this.notice('error', describeError(error));
    } finally {
      this.parts.abort.end();
    }
  }

  get system(): string | undefined {
    return this.parts.model.system;
  }

  get modelSystem(): string | undefined {
    return this.parts.model.session?.info.system;
  }

  get sessions(): SessionCommands {
    return this.parts.sessions;
  }

  setSystem(text: string | undefined): void {
    this.parts.model.setSystem(text);
  }

  get options(): Readonly<Record<string, unknown>> {
    return this.parts.model.options;
  }

  optionSource(name: string): 'config' | '/set' {
    return this.optionsSetInChat.has(name) ? '/set' : 'config';
  }

  setOption(name: string, value: unknown): unknown {
    const { model, connector } = this.parts;
    model.setOption(name, value);
    this.optionsSetInChat.add(name);
    if (name !== 'num_ctx' || !model.session) return value;
    // The window in force may be less than asked for (capped at the trained size): keep and show that.
    connector.resize(value);
    const inForce = model.session.numCtx;
    model.setOption('num_ctx', inForce);
    return inForce;
  }

  unsetOption(name: string): void {
    this.parts.model.unsetOption(name);
    this.optionsSetInChat.delete(name);
    if (name === 'num_ctx') this.parts.connector.resizeToModelDefault();
  }

  get think(): ThinkSetting | undefined {
    return this.parts.model.think;
  }

  get supportsThinking(): boolean {
    return this.parts.model.supportsThinking;
  }

  setThink(value: ThinkSetting): void {
    this.parts.model.setThink(value);
  }

  async retryReply(): Promise<void> {
    const { conversation, model, turns, compactions, screen } = this.parts;
    if (!model.session) {
      screen.notice('error', 'Not connected to a model yet.');
      return;
    }
    const user = conversation.lastUserMessage();
    if (!user) {
      screen.notice('info', 'Nothing to retry: no message has been sent yet.');
      return;
    }
    const replaced = conversation.replaceLastReplies();
    turns.forgetFailure();
    // The server's last count included the reply that is now left out.
    model.resetMeter();
    const line = user.content.trim().split('\n')[0];
    const quoted = line.length > 60 ? `${line.slice(0, 59)}…` : line;
    screen.notice(
      'info',
      replaced.length
        ? `Regenerating the reply to "${quoted}"; the old one stays in /history, marked replaced.`
        : `Asking again for a reply to "${quoted}".`,
    );
    if (compactions.due()) await compactions.run('auto', undefined);
    await turns.run();
  }

  async compact(focus: string | undefined): Promise<void> {
    // Called from a command, which already runs inside the work queue.
    await this.parts.compactions.run('manual', focus);
  }

  /** Every message of the conversation, oldest first (read-only). */
  get transcript(): readonly Message[] {
    return this.parts.conversation.transcript;
  }

  /** Every compaction record appended, oldest first (read-only). */
  get records(): readonly CompactionRecord[] {
    return this.parts.conversation.records;
  }

  get compaction(): CompactionRecord | undefined {
    return this.parts.conversation.latestRecord;
  }

  compactedToolCalls(): string[] {
    const upto = this.compaction?.upto ?? 0;
    return collectToolEntries(this.parts.conversation.transcript.slice(0, upto));
  }

  contextBreakdown(): ContextBreakdown | undefined {
    if (!this.parts.model.session) return undefined;
    const model = this.parts.model;
    return contextBreakdown({
      system: model.systemInForce(),
      record: this.compaction,
      transcript: this.parts.conversation.transcript,
      budgets: this.parts.compactions.budgets(),
      charsPerToken: model.meter.charsPerToken,
      toolContent: model.toolContent,
      toolDefinitionTokens: model.toolDefinitionTokens(),
      used: model.used(),
    });
  }

  tools(): ToolState[] {
    return this.deps.tools.list().map((t) => ({
      name: t.tool.name,
      description: t.tool.description,
      enabled: t.enabled,
      needsConfirmation: this.parts.toolRunner.needsConfirmation(t.tool.name),
    }));
  }

  setToolEnabled(name: string, enabled: boolean): boolean {
    return this.parts.model.setToolEnabled(name, enabled);
  }

  toolApprovals(): ToolApproval[] {
    return this.parts.toolRunner.approvals().map(({ tool, scope }) => ({ tool, scope }));
  }

  revokeToolApprovals(which: number | 'all'): ToolApproval[] {
    return this.parts.toolRunner.revokeApprovals(which).map(({ tool, scope }) => ({ tool, scope }));
  }

  lastToolOutput(): { name: string; output: string } | undefined {
    return this.parts.toolRunner.lastOutput();
  }

  // ── work ─────────────────────────────────────────────────────────────────────────────────

  private connect(): Promise<void> {
    return this.parts.connector.connect(this.unsent !== undefined);
  }

  /**
   * A message that cannot fit the window even after compaction is never sent silently to be cut
   * by Ollama: the user is told the numbers and chooses to send it anyway, edit it or grow the window.
   */
  private async fitsOrSendAnyway(user: WireMessage): Promise<boolean> {
    const { model, screen, dialogs } = this.parts;
    const session = model.session!;
    const smallest = model.smallestRequestWith(user);
    if (smallest <= session.numCtx) return true;
    const message = estimateMessageTokens(user, model.meter.charsPerToken);
    const interactive = this.deps.interactive ?? true;
    screen.notice(
      interactive ? 'warning' : 'error',
      `This message is about ${formatTokens(message)} tokens; even after compaction the request carrying it would be about ${formatTokens(smallest)} tokens, more than num_ctx ${formatTokens(session.numCtx)}. Sent as it is, Ollama would cut it without notice.`,
    );
    const key = await dialogs.ask({ kind: 'send-oversized', question: 'Send it anyway?', choices: 'y/n' });
    if (key.toLowerCase() === 'y') return true;
    const trained = session.info.trainedContext;
    const most = trained ? ` (${session.name} takes up to ${formatTokens(trained)})` : '';
    screen.notice(
      interactive ? 'info' : 'error',
      interactive
        ? `Not sent. Shorten it (↑ brings it back), or give the model a larger window with /set num_ctx <tokens>${most}.`
        : `Not sent. Shorten the prompt, or give the model a larger window with --num-ctx <tokens>${most}.`,
    );
    return false;
  }

  /** Starts a turn with the user's message (connecting first if need be) and runs it. */
  private async send(text: string): Promise<void> {
    if (!this.parts.model.session) {
      // Kept until the server answers: an empty Enter sends it then (nothing typed is lost).
      this.unsent = text;
      await this.connect();
      if (!this.parts.model.session) return;
    }
    this.unsent = undefined;
    const user = await this.withAttachments(text);
    if (!user) return;
    const { content, images } = user.message;
    if (!(await this.fitsOrSendAnyway({ role: 'user', content, images }))) return;
    this.parts.conversation.startTurn();
    this.parts.conversation.append({ role: 'user', ...user.message });
    this.parts.turns.forgetFailure();
    // Pre-flight: make room before sending, so Ollama never has to drop anything silently. The
    // message is appended first so the plan keeps it as the newest turn and may summarize the one before.
    if (this.parts.compactions.due()) await this.parts.compactions.run('auto', undefined);
    const { attachments } = user.message;
    this.parts.screen.push({ kind: 'user', id: this.parts.screen.itemId(), text, attachments });
    for (const warning of user.warnings) this.parts.screen.notice('warning', warning);
    await this.parts.turns.run();
  }

  /** The message with the files its `@path`s name; undefined, each reason shown, when one cannot go. */
  private async withAttachments(text: string) {
    const session = this.parts.model.session!;
    const { tools, attachments } = this.deps.config;
    const prepared = await prepareUserMessage(text, {
      cwd: this.deps.cwd,
      allowedPaths: tools.allowed_paths,
      limits: { maxTextBytes: attachments.max_file_bytes, maxImageBytes: attachments.max_image_bytes },
      model: { name: session.name, capabilities: session.info.capabilities },
    });
    if (prepared.ok) return prepared;
    for (const error of prepared.errors) this.parts.screen.notice('error', error);
    if (this.deps.interactive ?? true) this.parts.screen.notice('info', 'Not sent (↑ brings it back).');
    return undefined;
  }
}

/** Whether a command line names a command that may run at once, even while a reply streams. */
function runsWhileBusy(line: string): boolean {
  const parsed = parseCommandLine(line);
  return Boolean(parsed && findCommand(BUILTIN_COMMANDS, parsed.name)?.runsWhileBusy);
}
