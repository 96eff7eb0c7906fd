import type { ThinkSetting } from '../commands/command-host.js';
import { buildModelView } from '../compaction/model-view.js';
import type { Config } from '../config/schema.js';
import type { Conversation } from '../conversation/conversation.js';
import type { WireMessage } from '../conversation/message.js';
import { DEFAULT_CHARS_PER_TOKEN } from '../conversation/token-estimate.js';
import { capToolOutput } from '../tools/cap-output.js';
import type { ToolRegistry } from '../tools/registry.js';
import { ContextMeter } from './context-meter.js';
import type { ModelSession } from './model-selection.js';
import type { Store } from './store.js';
import type { ChatViewState } from './view-state.js';

/**
 * The model being chatted with and what every request to it carries: the session, the system
 * prompt, the Ollama options, the thinking setting, and how full its window is.
 */
export class ModelContext {
  /** Undefined until the server and the model answered. */
  session: ModelSession | undefined;
  system: string | undefined;
  options: Record<string, unknown>;
  think: ThinkSetting | undefined;
  readonly meter = new ContextMeter(DEFAULT_CHARS_PER_TOKEN);

  constructor(
    private readonly config: Config,
    private readonly conversation: Conversation,
    private readonly tools: ToolRegistry,
    private readonly store: Store<ChatViewState>,
  ) {
    this.system = config.system;
    this.options = { ...config.options };
    this.think = config.think;
  }

  /** What the next request sends: tool outputs capped at `tools.max_output_chars`. */
  modelView(): WireMessage[] {
    const maxChars = this.config.tools.max_output_chars;
    return buildModelView({
      system: this.system,
      record: this.conversation.latestRecord,
      transcript: this.conversation.transcript,
      toolContent: (m) => capToolOutput(m.content, maxChars),
    });
  }

  /** The `/api/chat` request for `view`, with tools and thinking only where the model supports them. */
  chatRequest(view: WireMessage[]) {
    const session = this.session!;
    const caps = session.info.capabilities;
    const tools = caps.includes('tools') ? this.tools.schemas() : [];
    return {
      model: session.name,
      messages: view,
      options: { ...this.options, num_ctx: session.numCtx },
      ...(caps.includes('thinking') && this.think !== undefined ? { think: this.think } : {}),
      ...(tools.length ? { tools } : {}),
    };
  }

  /** Tokens the next request is expected to take. */
  used(): number {
    const { transcript, records } = this.conversation;
    return this.meter.used(() => this.modelView(), transcript, records.length);
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
