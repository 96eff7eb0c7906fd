import { withoutImages } from '../../attachments/without-images.js';
import { supportsTools, supportsVision } from '../../backend/capabilities.js';
import type { ToolSchema } from '../../backend/interfaces.js';
import type { LoadRequest } from '../../backend/model-lifecycle.js';
import { smallestNumCtx } from '../../compaction/budgets.js';
import type { ChatContinuation } from '../../compaction/continuation.js';
import { buildModelView } from '../../compaction/model-view.js';
import type { Config } from '../../config/schema.js';
import { ContextMeter } from '../../conversation/context-meter.js';
import type { Conversation } from '../../conversation/conversation.js';
import type { Message, WireMessage } from '../../conversation/message.js';
import {
  DEFAULT_CHARS_PER_TOKEN,
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateToolDefinitionsTokens,
} from '../../conversation/token-estimate.js';
import { ToolRecency } from '../../conversation/tool-recency.js';
import { recallTool } from '../../tools/builtin/recall.js';
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
import {
  frameRequest,
  loadRequest,
  planRequest,
  type RequestFrame,
  type RequestPlan,
} from './request-plan.js';

/** What the chat's requests carry besides their messages: a request continuing them carries the same. */
export interface ChatRequestFrame {
  /** The tool definitions, as the chat's last request sent them. */
  tools: ToolSchema[];
  /** The chat's options, `num_ctx` included. */
  options: Record<string, unknown>;
}

/**
 * The next request, planned once for the chat as it stands (request-plan.ts): the plan is kept
 * until something it was made of changes (the conversation, the settings, the tools, the
 * calibration), so every reader — the fit check, the budget gate, the request, the meter,
 * `/context` — reads the same one. Also owns the meter and which tools were used lately.
 */
export class RequestBuilder {
  readonly meter = new ContextMeter(DEFAULT_CHARS_PER_TOKEN);
  /** The tools used and found, the most recent first: they stay resident when definitions are deferred. */
  readonly toolRecency = new ToolRecency();
  #deferralTold = false;
  /** What the last plan sent (once told), to say what a later plan stops sending. */
  #lastResident: Set<string> | undefined;
  #definitions: Kept<DefinitionPlan> | undefined;
  #frame: Kept<RequestFrame> | undefined;
  #plan: Kept<RequestPlan> | undefined;
  /** The last plan sent: a summarizer continuing the chat's request sends what it sent. */
  #sent: RequestPlan | undefined;
  /**
   * Every tool output a request sent shortened to fit, and the chars of its head it kept last: a
   * turn no longer the newest is sent (and counted by the meter, /context and compaction) as it
   * was, never whole. Saved with the session (by message id) for an exact resume.
   */
  #sentShortened = new Map<Message, number>();
  /** Told when {@link sentShortened} changed (the session keeper saves it). */
  onShortenedChange: ((byId: Record<number, number>) => void) | undefined;
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
    tools.setRecall(recallTool);
    tools.setFinder(
      createFindTools({
        deferred: () => this.frame()?.definitions.deferred ?? [],
        onFound: (names) => this.toolRecency.find(names),
      }),
    );
  }

  /** A tool result's content as sent: capped at `tools.max_output_chars`. */
  readonly toolContent = (message: Message): string =>
    capToolOutput(message.content, this.config.tools.max_output_chars);

  /** The plan of the next request to the model connected; undefined until one is. */
  plan(): RequestPlan | undefined {
    const frame = this.frame();
    if (!frame) return undefined;
    const { settings, conversation } = this;
    const key = [
      frame,
      conversation.version,
      settings.think,
      settings.options,
      settings.keepAlive,
      this.#sentShortened,
    ];
    if (this.#plan && sameKey(this.#plan.key, key)) return this.#plan.value;
    const plan = planRequest(
      {
        transcript: conversation.transcript,
        toolContent: this.toolContent,
        shortened: this.#sentShortened,
        think: settings.think,
        options: settings.options,
        keepAlive: settings.keepAlive,
      },
      frame,
    );
    this.#plan = { key, value: plan };
    return plan;
  }

  /** `plan` is the request that went to the server: what its KV cache now holds. */
  recordSent(plan: RequestPlan): void {
    this.#sent = plan;
    const changed = [...plan.shortened].filter(
      ([message, head]) => this.#sentShortened.get(message) !== head,
    );
    if (!changed.length) return;
    // A new map: the plan kept for the old one is made again.
    this.#sentShortened = new Map([...this.#sentShortened, ...changed]);
    this.onShortenedChange?.(
      Object.fromEntries([...this.#sentShortened].map(([message, head]) => [message.id, head])),
    );
  }

  /** Tool outputs the requests sent shortened (see `recordSent`). */
  get sentShortened(): ReadonlyMap<Message, number> {
    return this.#sentShortened;
  }

  /** Puts back what a resumed (or new: none) session's requests sent shortened, by message id. */
  restoreShortened(byId: Readonly<Record<number, number>> = {}): void {
    const byMessage = this.conversation.transcript.flatMap((message): [Message, number][] => {
      const head = byId[message.id];
      return head === undefined ? [] : [[message, head]];
    });
    this.#sentShortened = new Map(byMessage);
  }

  /**
   * The chat's last request as far as `transcript[upto]`: its system message (the summary in
   * force) and the messages before `upto` as it sent them, tool outputs it shortened to fit
   * shortened alike — what a summarizer that is the chat model continues, so that the server
   * finds all of it in its KV cache.
   */
  chatContinuation(upto: number): ChatContinuation {
    const { transcript, latestRecord } = this.conversation;
    const shortened = this.#sentTo() ? this.#sentShortened : new Map<Message, number>();
    const view = buildModelView({
      ...this.settings.systemSections(),
      record: latestRecord,
      transcript,
      toolContent: this.toolContent,
      end: upto,
      shortened,
    });
    const connected = this.settings.connected;
    // Images attached for an earlier (vision) model of this chat.
    const messages = connected && !supportsVision(connected.info) ? withoutImages(view) : view;
    const from = latestRecord?.upto ?? 0;
    // The definitions it sends (not recall's, which only later requests carry), none where the
    // template renders none (llama-server's chatml).
    const toolTokens =
      this.meter.rendersTools === false
        ? 0
        : estimateToolDefinitionsTokens(this.#continuedTools(), this.meter.charsPerToken);
    return {
      messages,
      shortened: transcript.slice(from, upto).filter((message) => shortened.has(message)),
      toolTokens,
      counted: this.#counted(estimateMessagesTokens(messages, this.meter.charsPerToken) + toolTokens),
    };
  }

  /**
   * A start of the next request, estimated at `estimate` tokens, by the server's count: the meter's
   * figure for the request (its count of the last one, plus what changed since), scaled to that
   * share. Undefined while the meter has no count (its figure is then the estimate itself).
   */
  #counted(estimate: number): number | undefined {
    const plan = this.plan();
    if (!plan) return undefined;
    const used = this.used(plan);
    // The plan's estimate counts the definitions a template leaves out; the server's count does not.
    const whole = plan.estimate - (this.meter.rendersTools === false ? plan.toolTokens : 0);
    if (used === plan.estimate || whole <= 0) return undefined;
    return Math.ceil((estimate * used) / whole);
  }

  /** What a request continuing the chat's carries besides its messages: the tools it last sent, its options. */
  chatFrame(model: ConnectedModel): ChatRequestFrame {
    return { tools: this.#continuedTools(), options: this.loadRequest(model).options ?? {} };
  }

  /** The tool definitions a request continuing the chat's carries: those its last request sent. */
  #continuedTools(): ToolSchema[] {
    return this.#sentTo()?.definitions.resident ?? this.frame()?.definitions.resident ?? [];
  }

  /** The last request sent, if it went to the model connected now. */
  #sentTo(): RequestPlan | undefined {
    return this.#sent?.model.name === this.settings.connected?.name ? this.#sent : undefined;
  }

  /**
   * What every request carries whatever its messages (tool definitions, budgets, the system
   * message): kept while a new message leaves it as it is, so the plan after it reuses it.
   */
  frame(): RequestFrame | undefined {
    const model = this.settings.connected;
    if (!model) return undefined;
    const definitions = this.definitions(model);
    const sections = this.settings.systemSections();
    const key = [definitions, ...Object.values(sections), this.conversation.latestRecord];
    if (this.#frame && sameKey(this.#frame.key, key)) return this.#frame.value;
    const { reserve, keep_recent, summary } = this.config.compaction;
    const frame = frameRequest({
      model,
      charsPerToken: this.meter.charsPerToken,
      definitions,
      recall: this.recallDefinition(model),
      budgetSpecs: { reserve, keep_recent, summary },
      sections,
      record: this.conversation.latestRecord,
    });
    this.#frame = { key, value: frame };
    return frame;
  }

  /** The definition plan for `model`, kept while the tools, the recent ones and the calibration stay. */
  private definitions(model: ConnectedModel): DefinitionPlan {
    const { used, found } = this.toolRecency;
    const key = [model, this.meter.charsPerToken, this.tools.version, used, found, this.mcpSettled()];
    if (this.#definitions && sameKey(this.#definitions.key, key)) return this.#definitions.value;
    const definitions = this.planDefinitions(model);
    this.#definitions = { key, value: definitions };
    return definitions;
  }

  /**
   * The tokens recall's definition adds to every request once a compaction has run, while none
   * has yet: a compaction makes room for it, or the request after the first one would overflow.
   */
  recallTokensToCome(frame: RequestFrame): number {
    return this.conversation.latestRecord ? 0 : frame.recallTokens;
  }

  /** `recall`'s definition for `model`: the frame sends it, counted like any other, once part of the chat is compacted. */
  private recallDefinition(model: ConnectedModel): ToolSchema | undefined {
    const recall = this.tools.recall;
    return recall && supportsTools(model.info) ? toolSchema(recall) : undefined;
  }

  /**
   * The smallest request a new user message can go out in, in the frame of the next plan: the
   * system message (prompt and summary in force), the message alone and the tool definitions —
   * what is left once compaction has summarized everything before it; and the message's own
   * estimate. Undefined until a model is connected.
   */
  smallestRequestWith(user: WireMessage): { request: number; message: number } | undefined {
    const frame = this.frame();
    if (!frame) return undefined;
    const message = estimateMessageTokens(user, frame.charsPerToken);
    return { request: frame.headTokens + message + frame.toolTokens, message };
  }

  /** Estimated tokens the instruction files' and pinned notes' sections add to the system message (0: none). */
  instructionTokens(): number {
    return this.frame()?.instructionTokens ?? 0;
  }

  /**
   * The smallest window ochat can work in with the model connected: its system message and tool
   * definitions, plus the least room compaction needs (budgets.ts).
   */
  smallestNumCtx(): { numCtx: number; systemTokens: number; toolTokens: number } {
    const frame = this.frame();
    const systemTokens = frame ? estimateMessagesTokens(frame.systemMessage, frame.charsPerToken) : 0;
    const toolTokens = frame?.toolTokens ?? 0;
    // The instruction files are fixed like the tool definitions: the budgets leave room for both.
    const instructionTokens = frame?.instructionTokens ?? 0;
    return {
      numCtx: smallestNumCtx(toolTokens + instructionTokens, systemTokens - instructionTokens),
      systemTokens,
      toolTokens,
    };
  }

  /**
   * Which tool definitions a request to `model` carries: all of them, or, when MCP servers add
   * tools and all would take more than `tools.max_definitions_share` of the window, the most
   * recently used that fit beside `find_tools` (none for a model without tool support).
   */
  private planDefinitions(model: ConnectedModel): DefinitionPlan {
    const schemas = supportsTools(model.info) ? this.tools.schemas() : [];
    const finder = this.tools.finder;
    // Deferred only for MCP tools: the built-ins alone are sent whole, as before.
    const mcpCount = schemas.filter((schema) => this.tools.get(schema.function.name)?.mcp).length;
    if (mcpCount === 0 || !finder) return { resident: schemas, deferred: [], totalTokens: 0 };
    const { charsPerToken } = this.meter;
    const { numCtx } = model;
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

  /** The tool definitions' tokens of `frame` by where they come from: `built-in`, each MCP server, `find_tools`. */
  toolDefinitionTokensBySource(frame: RequestFrame): { source: string; tokens: number }[] {
    const bySource = new Map<string, number>();
    for (const schema of frame.definitions.resident) {
      const tool = this.tools.get(schema.function.name);
      const source = tool?.mcp
        ? `MCP ${tool.mcp.server}`
        : tool === this.tools.finder
          ? 'find_tools'
          : 'built-in';
      const tokens = estimateToolDefinitionsTokens([schema], frame.charsPerToken);
      bySource.set(source, (bySource.get(source) ?? 0) + tokens);
    }
    return [...bySource].map(([source, tokens]) => ({ source, tokens }));
  }

  /** What a preload sends: the model with the window, options and keep_alive its chats will send. */
  loadRequest(model: ConnectedModel): LoadRequest {
    return loadRequest(model, this.settings);
  }

  /**
   * Tokens the next request is expected to take, tool definitions included: the one figure the
   * meter, the trigger, the compaction report and `/context` all show (0 until a model is connected).
   */
  used(plan = this.plan()): number {
    if (!plan) return 0;
    const { transcript, records } = this.conversation;
    return this.meter.used(() => plan.estimate, transcript, records.length);
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

/** A value and what it was made of: good while each part is the same. */
interface Kept<T> {
  key: readonly unknown[];
  value: T;
}

function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((part, i) => Object.is(part, b[i]));
}
