import { withoutImages } from '../attachments/without-images.js';
import { supportsThinking, supportsTools, supportsVision } from '../backend/capabilities.js';
import type { ChatRequest, ToolSchema } from '../backend/interfaces.js';
import type { LoadRequest } from '../backend/model-lifecycle.js';
import { type Budgets, resolveBudgets } from '../compaction/budgets.js';
import { buildModelView } from '../compaction/model-view.js';
import type { Config } from '../config/schema.js';
import { ContextMeter } from '../conversation/context-meter.js';
import type { Conversation } from '../conversation/conversation.js';
import type { Message, WireMessage } from '../conversation/message.js';
import {
  DEFAULT_CHARS_PER_TOKEN,
  estimateMessagesTokens,
  estimateToolDefinitionsTokens,
} from '../conversation/token-estimate.js';
import { capToolOutput } from '../tools/cap-output.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ConnectedModel } from './model-selection.js';
import type { ModelSettings } from './model-settings.js';
import type { Store } from './store.js';
import type { ChatViewState } from './view-state.js';

/**
 * What the next request sends and how many tokens it takes: the model view, the tool
 * definitions, the `/api/chat` request, and the meter that counts them.
 */
export class RequestBuilder {
  readonly meter = new ContextMeter(DEFAULT_CHARS_PER_TOKEN);

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
  }

  /** A tool result's content as sent: capped at `tools.max_output_chars`. */
  readonly toolContent = (message: Message): string =>
    capToolOutput(message.content, this.config.tools.max_output_chars);

  /**
   * What the next request sends: tool outputs capped at `tools.max_output_chars`, and the newest
   * turn's old tool outputs shortened when that turn alone would not leave the reserve free.
   */
  modelView(): WireMessage[] {
    const connected = this.settings.connected;
    const budgets = connected ? this.budgets(connected) : undefined;
    const view = buildModelView({
      system: this.settings.systemInForce(),
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
    return connected && !supportsVision(connected.info) ? withoutImages(view) : view;
  }

  /** The compaction budgets for `model`'s window (room left for the tool definitions). */
  budgets(model: ConnectedModel): Budgets {
    const { reserve, keep_recent, summary } = this.config.compaction;
    return resolveBudgets(model.numCtx, { reserve, keep_recent, summary }, this.toolDefinitionTokens());
  }

  /**
   * The smallest request a new user message can go out in: the system message (prompt and
   * summary in force), the message alone and the tool definitions — what is left once compaction
   * has summarized everything before it.
   */
  smallestRequestWith(user: WireMessage): number {
    const head = buildModelView({
      system: this.settings.systemInForce(),
      record: this.conversation.latestRecord,
      transcript: [],
    });
    return estimateMessagesTokens([...head, user], this.meter.charsPerToken) + this.toolDefinitionTokens();
  }

  /** The tool definitions every request carries (none for a model without tool support). */
  toolSchemas(): ToolSchema[] {
    const connected = this.settings.connected;
    return connected && supportsTools(connected.info) ? this.tools.schemas() : [];
  }

  /** Estimated tokens of the tool definitions every request carries. */
  toolDefinitionTokens(): number {
    return estimateToolDefinitionsTokens(this.toolSchemas(), this.meter.charsPerToken);
  }

  /**
   * The `/api/chat` request for `view`, with tools and thinking only where the model supports
   * them; `truncate: false`, so a prompt over num_ctx is refused, never cut silently.
   */
  chatRequest(model: ConnectedModel, view: WireMessage[]): ChatRequest {
    const tools = this.toolSchemas();
    const { think } = this.settings;
    return {
      ...this.loadRequest(model),
      messages: view,
      ...(supportsThinking(model.info) && think !== undefined ? { think } : {}),
      ...(tools.length ? { tools } : {}),
      truncate: false,
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
    return this.meter.used(
      () => estimateMessagesTokens(this.modelView(), this.meter.charsPerToken) + this.toolDefinitionTokens(),
      transcript,
      records.length,
    );
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
