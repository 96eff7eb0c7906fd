import { withoutImages } from '../attachments/without-images.js';
import { supportsThinking, supportsTools, supportsVision } from '../backend/capabilities.js';
import type { ThinkSetting, ToolSchema } from '../backend/interfaces.js';
import { type Budgets, resolveBudgets } from '../compaction/budgets.js';
import { buildModelView } from '../compaction/model-view.js';
import type { Config } from '../config/schema.js';
import { ContextMeter, type MeterState } from '../conversation/context-meter.js';
import type { Conversation } from '../conversation/conversation.js';
import type { Message, WireMessage } from '../conversation/message.js';
import {
  DEFAULT_CHARS_PER_TOKEN,
  estimateMessagesTokens,
  estimateToolDefinitionsTokens,
} from '../conversation/token-estimate.js';
import { capToolOutput } from '../tools/cap-output.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ModelSession } from './model-selection.js';
import type { Store } from './store.js';
import type { ChatViewState } from './view-state.js';

/** What a request carries that can change during a chat; the session recorder writes each change down. */
export type ModelSetting = 'model' | 'num_ctx' | 'system' | 'options' | 'think' | 'tools';

/** Told of every change to what the next request carries. */
export type ModelSettingsListener = (setting: ModelSetting, value: unknown) => void;

/**
 * The model being chatted with and what every request to it carries: the session, the system
 * prompt, the Ollama options, the thinking setting, and how full its window is.
 */
export class ModelContext {
  readonly meter = new ContextMeter(DEFAULT_CHARS_PER_TOKEN);
  #session: ModelSession | undefined;
  #system: string | undefined;
  #options: Readonly<Record<string, unknown>>;
  #think: ThinkSetting | undefined;
  #listener: ModelSettingsListener | undefined;

  constructor(
    private readonly config: Config,
    private readonly conversation: Conversation,
    private readonly tools: ToolRegistry,
    private readonly store: Store<ChatViewState>,
  ) {
    this.#system = config.system;
    this.#options = { ...config.options };
    this.#think = config.think;
  }

  /** The model being chatted with; undefined until the server and the model answered. */
  get session(): ModelSession | undefined {
    return this.#session;
  }

  /** Chats with `session` from now on (a new model, or the same one with a new window). */
  setSession(session: ModelSession): void {
    const previous = this.#session;
    this.#session = session;
    if (previous?.name !== session.name) this.#listener?.('model', session.name);
    if (previous?.numCtx !== session.numCtx) this.#listener?.('num_ctx', session.numCtx);
  }

  /** Sets who is told of every settings change (one listener: the session keeper). */
  listen(listener: ModelSettingsListener | undefined): void {
    this.#listener = listener;
  }

  /**
   * A resumed session's settings, put back as they were (not a change: nothing is told). Tools it
   * does not name take the config's default; without a saved meter, the request is estimated afresh.
   */
  restoreSettings(settings: {
    system?: string;
    options: Record<string, unknown>;
    think?: ThinkSetting;
    tools?: Record<string, boolean>;
    meter?: MeterState;
  }): void {
    this.#system = settings.system;
    this.#options = { ...settings.options };
    this.#think = settings.think;
    const enabledByDefault = new Set<string>(this.config.tools.enabled);
    for (const { name } of this.tools.list())
      this.tools.setEnabled(name, settings.tools?.[name] ?? enabledByDefault.has(name));
    this.meter.restore(settings.meter ?? { charsPerToken: this.meter.charsPerToken });
  }

  /** Which tools are on, by name: what a session records, so a resume sends the same tool list. */
  toolStates(): Record<string, boolean> {
    return Object.fromEntries(this.tools.list().map((t) => [t.name, t.enabled]));
  }

  /**
   * `/tools on|off`: false when no tool has that name. The server's last count included the old
   * tool definitions, so the next request is estimated afresh.
   */
  setToolEnabled(name: string, enabled: boolean): boolean {
    if (!this.tools.setEnabled(name, enabled)) return false;
    this.#listener?.('tools', this.toolStates());
    this.resetMeter();
    this.refreshUsed();
    return true;
  }

  /** The server refused a capability /api/show claimed: stop asking the model for it. */
  dropCapability(capability: string): void {
    const session = this.#session;
    if (!session) return;
    const capabilities = session.info.capabilities.filter((c) => c !== capability);
    this.#session = { ...session, info: { ...session.info, capabilities } };
  }

  /** Whether the model accepts `think` (otherwise the server answers 400). */
  get supportsThinking(): boolean {
    return this.#session ? supportsThinking(this.#session.info) : false;
  }

  /** The user's system prompt (config, `--system`, `/system`); see `systemInForce`. */
  get system(): string | undefined {
    return this.#system;
  }

  /** A new system prompt: the server's last count was for the old one, so the view is estimated afresh. */
  setSystem(text: string | undefined): void {
    this.#system = text;
    this.#listener?.('system', text);
    this.resetMeter();
    this.refreshUsed();
  }

  /** The Ollama options sent with every request (`num_ctx` aside). */
  get options(): Readonly<Record<string, unknown>> {
    return this.#options;
  }

  setOption(name: string, value: unknown): void {
    this.#options = { ...this.#options, [name]: value };
    this.#listener?.('options', this.#options);
  }

  /** Drops an option: the model's own default applies again. */
  unsetOption(name: string): void {
    const { [name]: _dropped, ...rest } = this.#options;
    this.#options = rest;
    this.#listener?.('options', this.#options);
  }

  /** The thinking setting sent to models that support it. */
  get think(): ThinkSetting | undefined {
    return this.#think;
  }

  setThink(value: ThinkSetting): void {
    this.#think = value;
    this.#listener?.('think', value);
  }

  /**
   * The system prompt ochat sends: the user's, else the model's own Modelfile `SYSTEM`. Sent
   * explicitly, because the server drops the Modelfile's as soon as a request starts with a
   * system message — which every request after a compaction does (it carries the summary).
   */
  systemInForce(): string | undefined {
    return this.system?.trim() ? this.system : this.session?.info.system;
  }

  /** A tool result's content as sent: capped at `tools.max_output_chars`. */
  readonly toolContent = (message: Message): string =>
    capToolOutput(message.content, this.config.tools.max_output_chars);

  /**
   * What the next request sends: tool outputs capped at `tools.max_output_chars`, and the newest
   * turn's old tool outputs shortened when that turn alone would not leave the reserve free.
   */
  modelView(): WireMessage[] {
    const budgets = this.session ? this.budgets() : undefined;
    const view = buildModelView({
      system: this.systemInForce(),
      record: this.conversation.latestRecord,
      transcript: this.conversation.transcript,
      toolContent: this.toolContent,
      // The tool definitions take their share of the window too.
      fit: budgets && {
        numCtx: budgets.numCtx - this.toolDefinitionTokens(),
        reserve: budgets.reserve,
        charsPerToken: this.meter.charsPerToken,
      },
    });
    // Images attached for an earlier (vision) model of this chat.
    return this.session && !supportsVision(this.session.info) ? withoutImages(view) : view;
  }

  /** The compaction budgets for the window in force (room left for the tool definitions). */
  budgets(): Budgets {
    const { reserve, keep_recent, summary } = this.config.compaction;
    return resolveBudgets(
      this.session!.numCtx,
      { reserve, keep_recent, summary },
      this.toolDefinitionTokens(),
    );
  }

  /**
   * The smallest request a new user message can go out in: the system message (prompt and
   * summary in force), the message alone and the tool definitions — what is left once compaction
   * has summarized everything before it.
   */
  smallestRequestWith(user: WireMessage): number {
    const head = buildModelView({
      system: this.systemInForce(),
      record: this.conversation.latestRecord,
      transcript: [],
    });
    return estimateMessagesTokens([...head, user], this.meter.charsPerToken) + this.toolDefinitionTokens();
  }

  /** The tool definitions every request carries (none for a model without tool support). */
  toolSchemas(): ToolSchema[] {
    return this.session && supportsTools(this.session.info) ? this.tools.schemas() : [];
  }

  /** Estimated tokens of the tool definitions every request carries. */
  toolDefinitionTokens(): number {
    return estimateToolDefinitionsTokens(this.toolSchemas(), this.meter.charsPerToken);
  }

  /** The `/api/chat` request for `view`, with tools and thinking only where the model supports them. */
  chatRequest(view: WireMessage[]) {
    const session = this.session!;
    const tools = this.toolSchemas();
    return {
      model: session.name,
      messages: view,
      options: { ...this.options, num_ctx: session.numCtx },
      ...(supportsThinking(session.info) && this.think !== undefined ? { think: this.think } : {}),
      ...(tools.length ? { tools } : {}),
    };
  }

  /**
   * Tokens the next request is expected to take, tool definitions included: the one figure the
   * meter, the trigger, the compaction report and `/context` all show.
   */
  used(): number {
    const { transcript, records } = this.conversation;
    return this.meter.used(
      () => estimateMessagesTokens(this.modelView(), this.meter.charsPerToken) + this.toolDefinitionTokens(),
      transcript,
      records.length,
    );
  }

  /** Shows the current `used` (once connected). */
  refreshUsed(): void {
    if (this.session) this.store.update({ used: this.used() });
  }

  /** Forgets the server's last count, e.g. when the view changed in a way it cannot know. */
  resetMeter(charsPerToken = this.meter.charsPerToken): void {
    this.meter.reset(charsPerToken);
  }
}
