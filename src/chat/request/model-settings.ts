import { supportsThinking } from '../../backend/capabilities.js';
import type { ThinkSetting } from '../../backend/interfaces.js';
import { renderPinsSection } from '../../compaction/pins.js';
import { type KeepAlive, toKeepAlive } from '../../config/keep-alive.js';
import type { Config } from '../../config/schema.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ConnectedModel } from './model-selection.js';

/** What a request carries that can change during a chat; the session recorder writes each change down. */
export type ModelSetting =
  | 'model'
  | 'num_ctx'
  | 'system'
  | 'options'
  | 'think'
  | 'tools'
  | 'keep_alive'
  | 'pins';

/** Told of every change to what the next request carries. */
export type ModelSettingsListener = (setting: ModelSetting, value: unknown) => void;

/** A resumed session's settings, as it saved them. */
export interface SavedModelSettings {
  system?: string;
  options: Record<string, unknown>;
  think?: ThinkSetting;
  tools?: Record<string, boolean>;
  /** `/set keep_alive` in that chat (null: the server's default); absent: the config's. */
  keepAlive?: number | string | null;
  /** The notes `/pin` kept, in order. */
  pins?: string[];
}

/**
 * The model chatted with and what every request to it carries: the connected model, the system
 * prompt, the Ollama options, the thinking setting, and which tools are on.
 */
export class ModelSettings {
  #connected: ConnectedModel | undefined;
  #system: string | undefined;
  #instructions: string | undefined;
  #pins: readonly string[] = [];
  #options: Readonly<Record<string, unknown>>;
  #think: ThinkSetting | undefined;
  #keepAlive: KeepAlive | undefined;
  /** Options changed by `/set` in this chat (the others in force come from the config). */
  readonly #setInChat = new Set<string>();
  readonly #listeners: ModelSettingsListener[] = [];

  constructor(
    private readonly config: Config,
    private readonly tools: ToolRegistry,
  ) {
    this.#system = config.system;
    this.#options = { ...config.options };
    this.#think = config.think;
    this.#keepAlive = config.keep_alive === undefined ? undefined : toKeepAlive(config.keep_alive);
  }

  /**
   * `keep_alive` sent with every chat and summarizer request (config, `/set keep_alive`);
   * undefined: the server's own default.
   */
  get keepAlive(): KeepAlive | undefined {
    return this.#keepAlive;
  }

  setKeepAlive(value: KeepAlive | undefined): void {
    this.#keepAlive = value;
    this.tell('keep_alive', value ?? null);
  }

  /** The model being chatted with; undefined until the server and the model answered. */
  get connected(): ConnectedModel | undefined {
    return this.#connected;
  }

  /** Chats with `model` from now on (a new model, or the same one with a new window). */
  connect(model: ConnectedModel): void {
    const previous = this.#connected;
    this.#connected = model;
    if (previous?.name !== model.name) this.tell('model', model.name);
    if (previous?.numCtx !== model.numCtx) this.tell('num_ctx', model.numCtx);
  }

  /** Adds a listener told of every settings change (the session keeper, the request builder). */
  listen(listener: ModelSettingsListener): void {
    this.#listeners.push(listener);
  }

  private tell(setting: ModelSetting, value: unknown): void {
    for (const listener of this.#listeners) listener(setting, value);
  }

  /** A resumed session's settings, put back as they were (not a change: nobody is told). Tools it does not name take the config's default. */
  restore(settings: SavedModelSettings): void {
    this.#system = settings.system;
    this.#options = { ...settings.options };
    this.#think = settings.think;
    this.#pins = [...(settings.pins ?? [])];
    // Checked again: a hand-edited session must not put a value Ollama refuses on every request.
    if (settings.keepAlive === null) this.#keepAlive = undefined;
    else if (settings.keepAlive !== undefined)
      this.#keepAlive = toKeepAlive(settings.keepAlive) ?? this.#keepAlive;
    const enabledByDefault = new Set<string>(this.config.tools.enabled);
    // An MCP tool is on unless the session turned it off.
    for (const { name, tool } of this.tools.list())
      this.tools.setEnabled(
        name,
        settings.tools?.[name] ?? (enabledByDefault.has(name) || tool.mcp !== undefined),
      );
  }

  /** Which tools are on, by name: what a session records, so a resume sends the same tool list. */
  toolStates(): Record<string, boolean> {
    return Object.fromEntries(this.tools.list().map((t) => [t.name, t.enabled]));
  }

  /** `/tools on|off`: false when no tool has that name. */
  setToolEnabled(name: string, enabled: boolean): boolean {
    if (!this.tools.setEnabled(name, enabled)) return false;
    this.tell('tools', this.toolStates());
    return true;
  }

  /** The server refused a capability /api/show claimed: stop asking the model for it; returns the model now connected. */
  dropCapability(capability: string): ConnectedModel | undefined {
    const connected = this.#connected;
    if (!connected) return undefined;
    const capabilities = connected.info.capabilities.filter((c) => c !== capability);
    this.#connected = { ...connected, info: { ...connected.info, capabilities } };
    return this.#connected;
  }

  /** Whether the model accepts `think` (otherwise the server answers 400). */
  get supportsThinking(): boolean {
    return this.#connected ? supportsThinking(this.#connected.info) : false;
  }

  /** The user's system prompt (config, `--system`, `/system`); see `systemInForce`. */
  get system(): string | undefined {
    return this.#system;
  }

  setSystem(text: string | undefined): void {
    this.#system = text;
    this.tell('system', text);
  }

  /**
   * The system prompt ochat sends: the user's, else the model's own Modelfile `SYSTEM`. Sent
   * explicitly, because the server drops the Modelfile's as soon as a request starts with a
   * system message — which every request after a compaction does (it carries the summary).
   */
  systemInForce(): string | undefined {
    return this.system?.trim() ? this.system : this.#connected?.info.system;
  }

  /** The instruction files' section of the system message (AGENTS.md); undefined: none. */
  get instructions(): string | undefined {
    return this.#instructions;
  }

  /** Read as the chat starts, before the first request (not a change a session records). */
  setInstructions(section: string | undefined): void {
    this.#instructions = section;
  }

  /** The notes `/pin` keeps in every request, in order. */
  get pins(): readonly string[] {
    return this.#pins;
  }

  setPins(pins: readonly string[]): void {
    this.#pins = [...pins];
    this.tell('pins', this.#pins);
  }

  /** The system message's own parts, which every request carries and compaction never touches. */
  systemSections(): {
    system: string | undefined;
    instructions: string | undefined;
    pins: string | undefined;
  } {
    return {
      system: this.systemInForce(),
      instructions: this.#instructions,
      pins: renderPinsSection(this.#pins),
    };
  }

  /** The Ollama options sent with every request (`num_ctx` aside). */
  get options(): Readonly<Record<string, unknown>> {
    return this.#options;
  }

  /** Whether an option in force comes from the config file or from `/set` in this chat. */
  optionSource(name: string): 'config' | '/set' {
    return this.#setInChat.has(name) ? '/set' : 'config';
  }

  /** Sets an option; `byUser`: typed in this chat (`/set`), as `optionSource` tells. */
  setOption(name: string, value: unknown, byUser = true): void {
    this.#options = { ...this.#options, [name]: value };
    if (byUser) this.#setInChat.add(name);
    this.tell('options', this.#options);
  }

  /** Drops an option: the model's own default applies again. */
  unsetOption(name: string): void {
    const { [name]: _dropped, ...rest } = this.#options;
    this.#options = rest;
    this.#setInChat.delete(name);
    this.tell('options', this.#options);
  }

  /** The thinking setting sent to models that support it. */
  get think(): ThinkSetting | undefined {
    return this.#think;
  }

  setThink(value: ThinkSetting): void {
    this.#think = value;
    this.tell('think', value);
  }
}
