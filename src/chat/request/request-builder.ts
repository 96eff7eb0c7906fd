import { supportsTools } from '../../backend/capabilities.js';
import type { LoadRequest } from '../../backend/model-lifecycle.js';
import { smallestNumCtx } from '../../compaction/budgets.js';
import { systemHead } from '../../compaction/model-view.js';
import type { Config } from '../../config/schema.js';
import { ContextMeter } from '../../conversation/context-meter.js';
import type { Conversation } from '../../conversation/conversation.js';
import { formatTokens } from '../../conversation/format-tokens.js';
import type { Message, WireMessage } from '../../conversation/message.js';
import {
  DEFAULT_CHARS_PER_TOKEN,
  estimateMessagesTokens,
  estimateToolDefinitionsTokens,
} from '../../conversation/token-estimate.js';
import { capToolOutput } from '../../tools/cap-output.js';
import { type DefinitionPlan, planToolDefinitions } from '../../tools/definition-budget.js';
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

/**
 * The next request, planned once for the chat as it stands (request-plan.ts): the plan is kept
 * until something it was made of changes (the conversation, the settings, the tools, the
 * calibration), so every reader — the fit check, the budget gate, the request, the meter,
 * `/context` — reads the same one. Also owns the meter and which tools were used lately.
 */
export class RequestBuilder {
  readonly meter = new ContextMeter(DEFAULT_CHARS_PER_TOKEN);
  /** Tool names, the most recently used or found first: they stay resident when definitions are deferred. */
  #recentTools: string[] = [];
  #recentChanges = 0;
  #deferralTold = false;
  #definitions: Kept<DefinitionPlan> | undefined;
  #frame: Kept<RequestFrame> | undefined;
  #plan: Kept<RequestPlan> | undefined;
  /** Told once per chat, the first time tool definitions are deferred. */
  onToolsDeferred: ((text: string) => void) | undefined;

  constructor(
    private readonly config: Config,
    private readonly settings: ModelSettings,
    private readonly conversation: Conversation,
    private readonly tools: ToolRegistry,
    private readonly store: Store<ChatViewState>,
  ) {
    // The server's last count was for the old system prompt or tool list: estimate afresh.
    settings.listen((setting) => {
      if (setting !== 'system' && setting !== 'tools') return;
      this.resetMeter();
      this.refreshUsed();
    });
    tools.setFinder(
      createFindTools({
        deferred: () => this.frame()?.definitions.deferred ?? [],
        onFound: (names) => this.touchTools(names),
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
    const key = [frame, conversation.version, settings.think, settings.options, settings.keepAlive];
    if (this.#plan && sameKey(this.#plan.key, key)) return this.#plan.value;
    const { reserve, keep_recent, summary } = this.config.compaction;
    const plan = planRequest(
      {
        model: frame.model,
        charsPerToken: frame.charsPerToken,
        definitions: frame.definitions,
        budgetSpecs: { reserve, keep_recent, summary },
        system: settings.systemInForce(),
        record: conversation.latestRecord,
        transcript: conversation.transcript,
        toolContent: this.toolContent,
        think: settings.think,
        options: settings.options,
        keepAlive: settings.keepAlive,
      },
      frame,
    );
    this.#plan = { key, value: plan };
    return plan;
  }

  /**
   * What every request carries whatever its messages (tool definitions, budgets, the system
   * message): kept while a new message leaves it as it is, so the plan after it reuses it.
   */
  frame(): RequestFrame | undefined {
    const model = this.settings.connected;
    if (!model) return undefined;
    const definitions = this.definitions(model);
    const system = this.settings.systemInForce();
    const record = this.conversation.latestRecord;
    const key = [definitions, system, record];
    if (this.#frame && sameKey(this.#frame.key, key)) return this.#frame.value;
    const { reserve, keep_recent, summary } = this.config.compaction;
    const frame = frameRequest({
      model,
      charsPerToken: this.meter.charsPerToken,
      definitions,
      budgetSpecs: { reserve, keep_recent, summary },
      system,
      record,
    });
    this.#frame = { key, value: frame };
    return frame;
  }

  /** The definition plan for `model`, kept while the tools, the recent ones and the calibration stay. */
  private definitions(model: ConnectedModel): DefinitionPlan {
    const key = [model, this.meter.charsPerToken, this.tools.version, this.#recentChanges];
    if (this.#definitions && sameKey(this.#definitions.key, key)) return this.#definitions.value;
    const definitions = this.planDefinitions(model);
    this.#definitions = { key, value: definitions };
    return definitions;
  }

  /**
   * The smallest request a new user message can go out in: the system message (prompt and
   * summary in force), the message alone and the tool definitions — what is left once compaction
   * has summarized everything before it.
   */
  smallestRequestWith(frame: RequestFrame, user: WireMessage): number {
    return estimateMessagesTokens([...frame.head, user], frame.charsPerToken) + frame.toolTokens;
  }

  /**
   * The smallest window ochat can work in with the model connected: its system message and tool
   * definitions, plus the least room compaction needs (budgets.ts).
   */
  smallestNumCtx(): { numCtx: number; systemTokens: number; toolTokens: number } {
    const system = systemHead(this.settings.systemInForce(), undefined);
    const systemTokens = estimateMessagesTokens(system, this.meter.charsPerToken);
    const toolTokens = this.frame()?.toolTokens ?? 0;
    return { numCtx: smallestNumCtx(toolTokens, systemTokens), systemTokens, toolTokens };
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
      recent: this.#recentTools,
      maxTokens: Math.floor(share * numCtx),
      cost: (schema) => estimateToolDefinitionsTokens([schema], charsPerToken),
      finder: toolSchema(finder),
    });
    if (plan.deferred.length > 0 && !this.#deferralTold) {
      this.#deferralTold = true;
      const percent = Math.round((plan.totalTokens / numCtx) * 100);
      // The share counts every definition: the built-ins' are named beside the MCP tools'.
      const builtIns = schemas.length - mcpCount;
      const text = `MCP: ${mcpCount} tool${mcpCount === 1 ? '' : 's'}, ~${formatTokens(plan.totalTokens)} tokens with the ${builtIns} built-in${builtIns === 1 ? '' : 's'} = ${percent}% of the ${formatTokens(numCtx)} window (over tools.max_definitions_share, ${Math.round(share * 100)}%); ${plan.deferred.length} deferred, found by the model with find_tools.`;
      // Not while a figure is being computed for the screen: after it.
      queueMicrotask(() => this.onToolsDeferred?.(text));
    }
    return plan;
  }

  /**
   * Tools just used or found: they stay resident. When one was deferred, the definitions change,
   * which the server's last count did not include.
   */
  touchTools(names: readonly string[]): void {
    const deferred = this.frame()?.definitions.deferred ?? [];
    const wasDeferred = deferred.some((schema) => names.includes(schema.function.name));
    this.#recentTools = [...names, ...this.#recentTools.filter((name) => !names.includes(name))].slice(
      0,
      500,
    );
    this.#recentChanges++;
    if (wasDeferred) this.resetMeter();
  }

  /** The MCP servers' tools changed (a server ready, gone, its list changed): estimate afresh. */
  toolsChanged(): void {
    this.resetMeter();
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
