import { withoutImages } from '../../attachments/without-images.js';
import { supportsThinking, supportsTools, supportsVision } from '../../backend/capabilities.js';
import type { ChatRequest, ToolSchema } from '../../backend/interfaces.js';
import type { LoadRequest } from '../../backend/model-lifecycle.js';
import { type Budgets, resolveBudgets, smallestNumCtx } from '../../compaction/budgets.js';
import type { ChatContinuation } from '../../compaction/continuation.js';
import { buildModelView, isRetriedReply, toWireMessage, type ViewFit } from '../../compaction/model-view.js';
import type { Config } from '../../config/schema.js';
import { ContextMeter } from '../../conversation/context-meter.js';
import type { Conversation } from '../../conversation/conversation.js';
import type { Message, WireMessage } from '../../conversation/message.js';
import {
  DEFAULT_CHARS_PER_TOKEN,
  estimateMessagesTokens,
  estimateToolDefinitionsTokens,
} from '../../conversation/token-estimate.js';
import { ToolRecency } from '../../conversation/tool-recency.js';
import { capToolOutput } from '../../tools/cap-output.js';
import {
  type DeferralFigures,
  type DefinitionPlan,
  deferralNotice,
  droppedNotice,
  planToolDefinitions,
} from '../../tools/definition-budget.js';
import { createFindTools } from '../../tools/find-tools.js';
import { type ToolRegistry, toolSchema } from '../../tools/registry.js';
import type { Store } from '../state/store.js';
import type { ChatViewState } from '../state/view-state.js';
import type { ConnectedModel } from './model-selection.js';
import type { ModelSettings } from './model-settings.js';

/** What the chat's requests carry besides their messages: a request continuing them carries the same. */
export interface ChatRequestFrame {
  /** The tool definitions, as the chat's last request sent them. */
  tools: ToolSchema[];
  /** The chat's options, `num_ctx` included. */
  options: Record<string, unknown>;
}

/**
 * What the next request sends and how many tokens it takes: the model view, the tool
 * definitions, the `/api/chat` request, and the meter that counts them.
 */
export class RequestBuilder {
  readonly meter = new ContextMeter(DEFAULT_CHARS_PER_TOKEN);
  /** The tools used and found, the most recent first: they stay resident when definitions are deferred. */
  readonly toolRecency = new ToolRecency();
  #deferralTold = false;
  /** What the last chat request sent besides its view: a summarizer continuing it sends the same. */
  #sent: { model: string; tools: ToolSchema[]; shortened: ReadonlyMap<Message, number> } | undefined;
  /** What the last plan sent (once told), to say what a later plan stops sending. */
  #lastResident: Set<string> | undefined;
  /**
   * Told when tool definitions are first deferred (once every MCP server has started or failed, so
   * that the figures count them all), and whenever a definition that was sent no longer is.
   */
  onToolsDeferred: ((text: string) => void) | undefined;
  /** Whether the MCP servers are all started or failed (or a one-shot stopped waiting for them). */
  mcpSettled: () => boolean = () => true;

  constructor(
    private readonly config: Config,
    private readonly settings: ModelSettings,
    private readonly conversation: Conversation,
    private readonly tools: ToolRegistry,
    private readonly store: Store<ChatViewState>,
  ) {
    // The server's last count was for the old system prompt or tool list: estimate afresh.
    settings.listen((setting) => {
      if (setting !== 'system' && setting !== 'tools' && setting !== 'pins') return;
      this.resetMeter();
      this.refreshUsed();
    });
    tools.setFinder(
      createFindTools({
        deferred: () => this.definitionPlan().deferred,
        onFound: (names) => this.toolRecency.find(names),
      }),
    );
  }

  /** A tool result's content as sent: capped at `tools.max_output_chars`. */
  readonly toolContent = (message: Message): string =>
    capToolOutput(message.content, this.config.tools.max_output_chars);

  /**
   * What the next request sends: tool outputs capped at `tools.max_output_chars`, and the newest
   * turn's old tool outputs shortened when that turn alone would not leave the reserve free.
   */
  modelView(onShortened?: (source: Message, headChars: number) => void): WireMessage[] {
    const connected = this.settings.connected;
    const fit = connected && this.viewFit(connected);
    return this.seenByModel(
      buildModelView({
        ...this.settings.systemSections(),
        record: this.conversation.latestRecord,
        transcript: this.conversation.transcript,
        toolContent: this.toolContent,
        fit: fit && { ...fit, onShortened },
      }),
    );
  }

  /** A view as the connected model is sent it: without the images attached for an earlier (vision) model of this chat. */
  private seenByModel(view: WireMessage[]): WireMessage[] {
    const connected = this.settings.connected;
    return connected && !supportsVision(connected.info) ? withoutImages(view) : view;
  }

  /**
   * The chat's last request as far as `transcript[upto]`: its system message (the summary in
   * force) and the messages before `upto` as it sent them, tool outputs it shortened to fit
   * shortened alike — what a summarizer that is the chat model continues, so that the server
   * finds all of it in its KV cache.
   */
  chatContinuation(upto: number): ChatContinuation {
    const { transcript, latestRecord } = this.conversation;
    const shortened = this.#sentTo()?.shortened ?? new Map<Message, number>();
    const messages = this.seenByModel(
      buildModelView({
        ...this.settings.systemSections(),
        record: latestRecord,
        transcript,
        toolContent: this.toolContent,
        end: upto,
        shortened,
      }),
    );
    const from = latestRecord?.upto ?? 0;
    return { messages, shortened: transcript.slice(from, upto).filter((message) => shortened.has(message)) };
  }

  /** What a request continuing the chat's carries besides its messages: the tools it last sent, its options. */
  chatFrame(model: ConnectedModel): ChatRequestFrame {
    return {
      tools: this.#sentTo()?.tools ?? this.toolSchemas(),
      options: this.loadRequest(model).options ?? {},
    };
  }

  /** The last request sent, if it went to the model connected now. */
  #sentTo() {
    return this.#sent?.model === this.settings.connected?.name ? this.#sent : undefined;
  }

  /**
   * How many chars of its head the next request gives the model of `message`'s output, when the
   * window makes it shorten that output to fit; undefined when it goes as it is.
   */
  shortenedForModel(message: Message): number | undefined {
    let kept: number | undefined;
    this.modelView((source, headChars) => {
      if (source === message) kept = headChars;
    });
    return kept;
  }

  /** The room the newest turn of a request to `model` must fit in (the tool definitions take their share). */
  viewFit(model: ConnectedModel): ViewFit {
    const budgets = this.budgets(model);
    return {
      numCtx: budgets.numCtx - this.toolDefinitionTokens(),
      reserve: budgets.reserve,
      charsPerToken: this.meter.charsPerToken,
    };
  }

  /**
   * The compaction budgets for `model`'s window: room left for the tool definitions and the
   * instruction files, which every request carries whole.
   */
  budgets(model: ConnectedModel): Budgets {
    const { reserve, keep_recent, summary } = this.config.compaction;
    const fixed = this.toolDefinitionTokens() + this.instructionTokens();
    return resolveBudgets(model.numCtx, { reserve, keep_recent, summary }, fixed);
  }

  /** Estimated tokens the instruction files' and pinned notes' sections add to the system message (0: none). */
  instructionTokens(): number {
    const { instructions, pins } = this.settings;
    if (!instructions && !pins.length) return 0;
    const { charsPerToken } = this.meter;
    const without = buildModelView({ system: this.settings.systemInForce(), transcript: [] });
    const withThem = buildModelView({ ...this.settings.systemSections(), transcript: [] });
    return estimateMessagesTokens(withThem, charsPerToken) - estimateMessagesTokens(without, charsPerToken);
  }

  /**
   * The smallest request a new user message can go out in: the system message (prompt and
   * summary in force), the message alone and the tool definitions — what is left once compaction
   * has summarized everything before it.
   */
  smallestRequestWith(user: WireMessage): number {
    const head = buildModelView({
      ...this.settings.systemSections(),
      record: this.conversation.latestRecord,
      transcript: [],
    });
    return estimateMessagesTokens([...head, user], this.meter.charsPerToken) + this.toolDefinitionTokens();
  }

  /**
   * The smallest window ochat can work in with the model connected: its system message and tool
   * definitions, plus the least room compaction needs (budgets.ts).
   */
  smallestNumCtx(): { numCtx: number; systemTokens: number; toolTokens: number } {
    const system = buildModelView({ ...this.settings.systemSections(), transcript: [] });
    const systemTokens = estimateMessagesTokens(system, this.meter.charsPerToken);
    const toolTokens = this.toolDefinitionTokens();
    // The instruction files are fixed like the tool definitions: the budgets leave room for both.
    const instructionTokens = this.instructionTokens();
    return {
      numCtx: smallestNumCtx(toolTokens + instructionTokens, systemTokens - instructionTokens),
      systemTokens,
      toolTokens,
    };
  }

  /**
   * Which tool definitions the next request carries: all of them, or, when MCP servers add tools
   * and all would take more than `tools.max_definitions_share` of the window, the most recently
   * used that fit beside `find_tools` (none for a model without tool support).
   */
  definitionPlan(): DefinitionPlan {
    const connected = this.settings.connected;
    const schemas = connected && supportsTools(connected.info) ? this.tools.schemas() : [];
    const finder = this.tools.finder;
    // Deferred only for MCP tools: the built-ins alone are sent whole, as before.
    const mcpCount = schemas.filter((schema) => this.tools.get(schema.function.name)?.mcp).length;
    if (mcpCount === 0 || !finder || !connected) return { resident: schemas, deferred: [], totalTokens: 0 };
    const { charsPerToken } = this.meter;
    const { numCtx } = connected;
    const share = this.config.tools.max_definitions_share;
    const plan = planToolDefinitions({
      schemas,
      builtIn: (name) => !this.tools.get(name)?.mcp,
      used: this.toolRecency.used,
      found: this.toolRecency.found,
      maxTokens: Math.floor(share * numCtx),
      cost: (schema) => estimateToolDefinitionsTokens([schema], charsPerToken),
      finder: toolSchema(finder),
    });
    this.#tellDeferral(plan, { mcpCount, builtIns: schemas.length - mcpCount, numCtx, share });
    return plan;
  }

  /** Says what the plan defers: the first time in figures, later each definition it stops sending. */
  #tellDeferral(plan: DefinitionPlan, figures: Omit<DeferralFigures, 'plan' | 'isBuiltIn'>): void {
    if (plan.deferred.length === 0 && !this.#deferralTold) return;
    // Told with every server's tools counted, not those of the first one up.
    if (!this.mcpSettled()) return;
    const resident = new Set(plan.resident.map((schema) => schema.function.name));
    let text: string | undefined;
    if (!this.#deferralTold) {
      this.#deferralTold = true;
      text = deferralNotice({ ...figures, plan, isBuiltIn: (name) => !this.tools.get(name)?.mcp });
    } else {
      const dropped = plan.deferred
        .map((schema) => schema.function.name)
        .filter((name) => this.#lastResident?.has(name));
      if (dropped.length > 0) text = droppedNotice(dropped, figures.share);
    }
    this.#lastResident = resident;
    // Not while a figure is being computed for the screen: after it.
    if (text !== undefined) queueMicrotask(() => this.onToolsDeferred?.(text));
  }

  /** The tool definitions every request carries. */
  toolSchemas(): ToolSchema[] {
    return this.definitionPlan().resident;
  }

  /** Tools the model just called: they stay resident. */
  touchTools(names: readonly string[]): void {
    this.toolRecency.use(names);
  }

  /**
   * The MCP servers' tools changed (a server ready, gone, its list changed). The meter follows the
   * change through its estimate; only a count saved without one is dropped.
   */
  toolsChanged(): void {
    this.meter.forgetUntracked();
    this.refreshUsed();
  }

  /** Estimated tokens of the tool definitions every request carries. */
  toolDefinitionTokens(): number {
    return estimateToolDefinitionsTokens(this.toolSchemas(), this.meter.charsPerToken);
  }

  /** The tool definitions' tokens by where they come from: `built-in`, each MCP server, `find_tools`. */
  toolDefinitionTokensBySource(): { source: string; tokens: number }[] {
    const bySource = new Map<string, number>();
    for (const schema of this.toolSchemas()) {
      const tool = this.tools.get(schema.function.name);
      const source = tool?.mcp
        ? `MCP ${tool.mcp.server}`
        : tool === this.tools.finder
          ? 'find_tools'
          : 'built-in';
      const tokens = estimateToolDefinitionsTokens([schema], this.meter.charsPerToken);
      bySource.set(source, (bySource.get(source) ?? 0) + tokens);
    }
    return [...bySource].map(([source, tokens]) => ({ source, tokens }));
  }

  /**
   * The `/api/chat` request for `view`, with tools and thinking only where the model supports
   * them; `truncate: false`, so a prompt over num_ctx is refused, never cut silently — except
   * for a message the user chose to send anyway ("Send it anyway?" → y): they were told what the
   * server will cut of it, and a refusal would make the choice void.
   */
  chatRequest(
    model: ConnectedModel,
    view: WireMessage[],
    /** The tool outputs `view` shortened to fit (`modelView`'s `onShortened`). */
    shortened: ReadonlyMap<Message, number> = new Map(),
  ): ChatRequest {
    const tools = this.toolSchemas();
    // Remembered as the request sent: what the server's KV cache now holds.
    this.#sent = { model: model.name, tools, shortened };
    const { think } = this.settings;
    return {
      ...this.loadRequest(model),
      messages: view,
      ...(supportsThinking(model.info) && think !== undefined ? { think } : {}),
      ...(tools.length ? { tools } : {}),
      truncate: this.conversation.lastUserMessage()?.oversized === true,
    };
  }

  /** What a preload sends: the model with the window, options and keep_alive its chats will send. */
  loadRequest(model: ConnectedModel): LoadRequest {
    const { keepAlive } = this.settings;
    return {
      model: model.name,
      options: { ...this.settings.options, num_ctx: model.numCtx },
      ...(keepAlive !== undefined ? { keep_alive: keepAlive } : {}),
    };
  }

  /**
   * Tokens the next request is expected to take, tool definitions included: the one figure the
   * meter, the trigger, the compaction report and `/context` all show.
   */
  used(): number {
    const { transcript, records } = this.conversation;
    return this.meter.used(() => this.estimateRequest(), transcript, records.length);
  }

  /**
   * An estimate of the whole next request: its messages as they would be sent and the tool
   * definitions. A reply cut short at the end is counted too: a retry's request leaves it out,
   * but the next message's carries it, and the meter must not read low until then.
   */
  estimateRequest(): number {
    const { charsPerToken } = this.meter;
    const last = this.conversation.transcript.at(-1);
    const partial =
      last && !last.replaced && isRetriedReply(last, undefined)
        ? estimateMessagesTokens([toWireMessage(last)], charsPerToken)
        : 0;
    return estimateMessagesTokens(this.modelView(), charsPerToken) + partial + this.toolDefinitionTokens();
  }

  /** Shows the current `used` (once connected). */
  refreshUsed(): void {
    if (this.settings.connected) this.store.update({ used: this.used() });
  }

  /** Forgets the server's last count, e.g. when the view changed in a way it cannot know. */
  resetMeter(charsPerToken = this.meter.charsPerToken): void {
    this.meter.reset(charsPerToken);
  }
}
