import { supportsVision } from '../../backend/capabilities.js';
import { type ChatBackend, type ServerIdentity, serverName } from '../../backend/chat-backend.js';
import { BackendError } from '../../backend/errors.js';
import type { InstalledModel, ModelInfo, ThinkSetting } from '../../backend/interfaces.js';
import type { InstructionsView, ModelCommands } from '../../commands/command-host.js';
import { numCtxSourceLabel } from '../../commands/num-ctx-source.js';
import type { AppState } from '../../config/app-state.js';
import type { Config } from '../../config/schema.js';
import type { MeterState } from '../../conversation/context-meter.js';
import type { Conversation } from '../../conversation/conversation.js';
import { formatTokens } from '../../conversation/format-tokens.js';
import { DEFAULT_CHARS_PER_TOKEN } from '../../conversation/token-estimate.js';
import { describeError } from '../../text/describe-error.js';
import type { CompactionRunner } from '../compaction/compaction-runner.js';
import {
  type ConnectedModel,
  chooseModel,
  connectModel,
  NoModelChosenError,
} from '../request/model-selection.js';
import type { ModelSettings } from '../request/model-settings.js';
import { resolveNumCtx } from '../request/num-ctx.js';
import type { ProjectInstructions } from '../request/project-instructions.js';
import type { RequestBuilder } from '../request/request-builder.js';
import type { AbortSlot } from '../state/abort-slot.js';
import type { AskDialog } from '../state/dialog-queue.js';
import type { ScreenLog } from '../state/screen-log.js';
import type { LocalModel } from './local-model.js';

/** What the connector works with. */
export interface ModelConnectorDeps {
  backend: ChatBackend;
  config: Config;
  appState: AppState;
  /** `-m` and `--num-ctx` from the command line. */
  flags: { model?: string; numCtx?: number };
  settings: ModelSettings;
  requests: RequestBuilder;
  conversation: Conversation;
  screen: ScreenLog;
  compaction: Pick<CompactionRunner, 'modelChanged' | 'numCtxChanged'>;
  /** Ctrl+C cancels the connection attempt (a server that accepts and never answers). */
  abort: AbortSlot;
  /** False in one-shot mode: nobody can press Enter to try again. */
  interactive: boolean;
  /** The model's life at the server: warm-up, pull, /ps, /unload. */
  local: LocalModel;
  /** The instruction files the system message carries, for `/instructions`. */
  instructions: Pick<ProjectInstructions, 'view'>;
  /** Asks `Pull tiny? (y/n)` when the model named is not installed, and which model when several are and none was named. */
  ask: AskDialog;
}

/**
 * Connects the model: at start, on `/model`, and when `/set num_ctx` changes its window; what
 * the model commands (`/model`, `/system`, `/think`, `/show`) read and change.
 */
export class ModelConnector implements ModelCommands {
  /** A resumed session's model and window: used unless `-m` / `--num-ctx` say otherwise. */
  private resumed: { model?: string; numCtx?: number } = {};
  /** The resumed session's meter, put back by the next `open` of its model and window (once). */
  private resumedMeter: MeterState | undefined;
  /** The installed models as last listed, for Tab completion. */
  #installed: readonly string[] = [];

  constructor(private readonly deps: ModelConnectorDeps) {}

  /**
   * A resumed session's model and `num_ctx`: connecting opens them, so its requests stay the same.
   * `meter`: its saved meter, for the `open` that follows (none when the model is open already).
   */
  resumeWith(resumed: { model?: string; numCtx?: number; meter?: MeterState }): void {
    this.resumed = { model: resumed.model, numCtx: resumed.numCtx };
    this.resumedMeter = resumed.meter;
  }

  /**
   * Connects to the server and the model chosen for this chat; failures are shown, with a hint
   * that Enter retries (`keptMessage`: and that the message typed meanwhile will be sent then).
   * Returns the connected model, or undefined when it failed.
   */
  async connect(keptMessage: boolean): Promise<ConnectedModel | undefined> {
    const { backend, config, appState, flags, screen } = this.deps;
    screen.store.update({ busy: `connecting to ${backend.host}…` });
    const { signal } = this.deps.abort.begin();
    try {
      const name = await chooseModel(
        {
          flag: flags.model ?? this.resumed.model,
          config: config.model,
          lastUsed: await this.lastUsedHere(
            appState.lastModel,
            flags.model ?? this.resumed.model ?? config.model,
            signal,
          ),
        },
        () => backend.listModels(signal),
        backend.server,
      ).catch((error: unknown) => this.pickInstalled(error));
      if (name === undefined) return undefined;
      const connected = await this.openOrPull(name, signal);
      screen.push({
        kind: 'banner',
        id: screen.itemId(),
        model: connected.name,
        host: backend.host,
        numCtx: connected.numCtx,
        ...(connected.numCtxSource === 'server' ? { windowSource: connected.info.serverWindow?.source } : {}),
      });
      const window = connected.info.serverWindow;
      if (window?.guessed && connected.numCtxSource === 'server') {
        screen.notice(
          'info',
          `${serverName(backend)} at ${backend.host} does not say its window: ochat assumes ${formatTokens(window.tokens)} until a longer prompt is refused (--num-ctx sets it).`,
        );
      }
      if (connected.cappedFrom) {
        screen.notice(
          'warning',
          `num_ctx ${formatTokens(connected.cappedFrom)} is more than ${connected.name} was trained on; using ${formatTokens(connected.numCtx)}.`,
        );
      }
      this.deps.local.preload(connected);
      return connected;
    } catch (error) {
      if (signal.aborted) screen.notice('warning', `Cancelled connecting to ${backend.host}.`);
      else screen.notice('error', describeError(error));
      if (this.deps.interactive) {
        const kept = keptMessage ? ' Your message is kept and will be sent then.' : '';
        screen.notice('info', `Press Enter to try again.${kept}`);
      }
      return undefined;
    } finally {
      this.deps.abort.end();
      screen.store.update({ busy: undefined });
    }
  }

  /**
   * The model used last, if this server can have it: an OpenAI-compatible server serves only what
   * it was started with, so a name from another server (the last Ollama chat's) is not taken
   * unless it lists it. Asks the server only when no model is named.
   */
  private async lastUsedHere(
    lastUsed: string | undefined,
    named: string | undefined,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const { backend } = this.deps;
    if (!lastUsed || named || backend.server?.api !== 'openai') return lastUsed;
    const served = await backend.listModels(signal);
    return served.some((model) => model.name === lastUsed) ? lastUsed : undefined;
  }

  /**
   * None was named and several are installed: on a terminal the user picks one (↑/↓, Enter);
   * undefined when they pick none, told how to choose later. Other failures are rethrown.
   */
  private async pickInstalled(error: unknown): Promise<string | undefined> {
    const several = error instanceof NoModelChosenError && error.installed.length > 1;
    if (!several || !this.deps.interactive) throw error;
    this.#installed = error.installed.map((m) => m.name);
    const picked = await this.deps.ask({
      kind: 'pick-model',
      question: 'Which model? Several are installed',
      choices: '↑/↓, Enter · esc: choose later',
      options: error.installed.map((m) => ({
        value: m.name,
        label: m.name,
        detail: [m.parameterSize, m.quantization].filter(Boolean).join(' ') || undefined,
      })),
    });
    // Named as a typed name is (`m1`, not `m1:latest`): the header and status read the same
    // whether the model came from -m, the config or this list.
    if (picked) return picked.replace(/:latest$/, '');
    this.deps.screen.notice(
      'info',
      'No model chosen: /model <name> chooses one here (Tab completes the installed ones), Enter shows the list again, and -m <name> chooses at start.',
    );
    return undefined;
  }

  /** Makes `name` the chat model; throws (changing nothing) when the server cannot show it. */
  async open(name: string, signal?: AbortSignal): Promise<ConnectedModel> {
    const { backend, appState, flags, settings, requests, screen } = this.deps;
    const configNumCtx = typeof settings.options.num_ctx === 'number' ? settings.options.num_ctx : undefined;
    const resumedNumCtx = name === this.resumed.model ? this.resumed.numCtx : undefined;
    const connected = await connectModel(
      backend,
      name,
      { flag: flags.numCtx ?? resumedNumCtx, config: configNumCtx },
      signal,
    );
    settings.connect(connected);
    const asked = connected.numCtxSource === 'flag' ? '--num-ctx' : 'options.num_ctx';
    const refusal =
      connected.numCtxSource === 'flag' || connected.numCtxSource === 'config'
        ? this.tooSmall(connected.numCtx, `${asked} ${connected.numCtx}`)
        : undefined;
    if (refusal) {
      // Refused, not obeyed: the window the model would have without it (its Modelfile's, or ochat's default).
      const fallback = resolveNumCtx({
        server: connected.info.serverWindow?.tokens,
        modelfile: connected.info.numCtxParam,
        trained: connected.info.trainedContext,
      });
      settings.connect({
        ...connected,
        numCtx: fallback.numCtx,
        numCtxSource: fallback.source,
        refusedNumCtx: connected.numCtx,
      });
      screen.notice(
        'error',
        `${refusal} Using ${fallback.numCtx} (the ${fallback.source === 'modelfile' ? "Modelfile's" : fallback.source === 'server' ? "server's" : 'default'}).`,
      );
    }
    this.deps.compaction.modelChanged();
    const meter = this.resumedMeter;
    this.resumedMeter = undefined;
    // The resumed session's own model and window: it measures as it did when it was saved.
    if (meter && name === this.resumed.model && connected.numCtx === this.resumed.numCtx)
      requests.meter.restore(meter);
    else requests.resetMeter(appState.calibration(name) ?? DEFAULT_CHARS_PER_TOKEN);
    appState.lastModel = name;
    const inForce = settings.connected ?? connected;
    screen.store.update({ model: name, ...this.window(inForce) });
    requests.refreshUsed();
    return inForce;
  }

  /** The window for the status line, with where its figure came from on a server that sets its own. */
  private window(connected: ConnectedModel): { numCtx: number; windowSource: string | undefined } {
    const server = this.deps.backend.server;
    const windowSource =
      server?.api === 'openai' ? numCtxSourceLabel(connected.numCtxSource, connected.info) : undefined;
    return { numCtx: connected.numCtx, windowSource };
  }

  /** Why `numCtx` is too small for ochat with the model connected, or undefined when it is not. */
  private tooSmall(numCtx: number, what: string): string | undefined {
    const smallest = this.deps.requests.smallestNumCtx();
    if (numCtx >= smallest.numCtx) return undefined;
    const tools = smallest.toolTokens ? `, the tool definitions about ${smallest.toolTokens}` : '';
    return `${what} is too small: the system message takes about ${smallest.systemTokens} tokens${tools}, and compaction needs room to work; the smallest that works is ${smallest.numCtx}.`;
  }

  /**
   * `open`, and when the server has no such model, `Pull tiny? (y/n)` (interactive only: one-shot
   * mode fails with the `ollama pull` line); after a successful pull the chat opens on it.
   */
  private async openOrPull(name: string, signal: AbortSignal): Promise<ConnectedModel> {
    try {
      return await this.open(name, signal);
    } catch (error) {
      // An OpenAI-compatible server serves what it was started with: nothing to pull.
      const pullable = this.deps.backend.server?.api !== 'openai';
      if (
        !this.deps.interactive ||
        !pullable ||
        !(error instanceof BackendError) ||
        error.kind !== 'model-not-found'
      )
        throw error;
      this.deps.screen.notice('warning', `${name} is not installed.`);
      const key = await this.deps.ask({ kind: 'pull-model', question: `Pull ${name}?`, choices: 'y/n' });
      if (key.toLowerCase() !== 'y' || !(await this.deps.local.pull(name, signal))) throw error;
      this.listInBackground();
      return await this.open(name, signal);
    }
  }

  /**
   * The server refused a prompt as over its window and named it (an OpenAI-compatible server,
   * whose window is set when it starts): that window is used from now on. Returns the model as
   * connected after, or undefined when nothing changed (no model, or a window ochat cannot work in).
   */
  learnWindow(tokens: number): ConnectedModel | undefined {
    const connected = this.deps.settings.connected;
    if (!connected || tokens >= connected.numCtx) return undefined;
    const was = connected.numCtx;
    if (this.resize(tokens, 'refusal') === undefined) return undefined;
    this.deps.screen.notice(
      'warning',
      `${serverName(this.deps.backend)}'s window is ${formatTokens(tokens)}, not ${formatTokens(was)}: using ${formatTokens(tokens)} from now on.`,
    );
    return this.deps.settings.connected;
  }

  /** `/set num_ctx default`: the Modelfile's window, else ochat's default, as for a fresh start without flags. */
  resizeToModelDefault(): void {
    const connected = this.deps.settings.connected;
    if (!connected) return;
    const { info } = connected;
    const resolved = resolveNumCtx({
      server: info.serverWindow?.tokens,
      modelfile: info.numCtxParam,
      trained: info.trainedContext,
    });
    this.resize(resolved.numCtx, resolved.source);
  }

  /**
   * `/set num_ctx`: the new window, capped to what the model was trained on; returns the one in
   * force. A window smaller than ochat itself needs is refused, naming the smallest that works
   * (undefined: nothing changed).
   */
  resize(value: unknown, source = '/set'): number | undefined {
    const { settings, requests, screen } = this.deps;
    const connected = settings.connected;
    if (!connected) return undefined;
    const trained = connected.info.trainedContext;
    const numCtx = trained ? Math.min(Number(value), trained) : Number(value);
    const refusal = this.tooSmall(numCtx, `num_ctx ${numCtx}`);
    if (refusal) {
      screen.notice('error', `${refusal} num_ctx stays ${connected.numCtx}.`);
      return undefined;
    }
    if (trained && Number(value) > trained) {
      screen.notice(
        'warning',
        `${connected.name} was trained on ${formatTokens(trained)} tokens; num_ctx capped to it.`,
      );
    }
    // A window set now is no longer the one refused at the start.
    const { refusedNumCtx: _refused, ...kept } = connected;
    const resized = { ...kept, numCtx, numCtxSource: source };
    settings.connect(resized);
    this.deps.compaction.numCtxChanged();
    screen.store.update(this.window(resized));
    requests.refreshUsed();
    // The server loads the new window at once, and says what it costs (spill warning).
    if (numCtx !== connected.numCtx) this.deps.local.resized(resized);
    return numCtx;
  }

  // ── ModelCommands ────────────────────────────────────────────────────────────────────────

  /** The installed models as last listed (empty until the server answered), for Tab completion. */
  get installed(): readonly string[] {
    return this.#installed;
  }

  /** Lists the installed models in the background, for Tab completion (failures are left unsaid). */
  listInBackground(): void {
    this.deps.backend.listModels().then(
      (models) => {
        this.#installed = models.map((m) => m.name);
      },
      () => {},
    );
  }

  get server(): ServerIdentity | undefined {
    return this.deps.backend.server;
  }

  get name(): string | undefined {
    return this.deps.settings.connected?.name ?? this.deps.screen.store.get().model;
  }

  get numCtx(): number | undefined {
    return this.deps.settings.connected?.numCtx;
  }

  get numCtxSource(): string | undefined {
    return this.deps.settings.connected?.numCtxSource;
  }

  get info(): ModelInfo | undefined {
    return this.deps.settings.connected?.info;
  }

  async list(): Promise<InstalledModel[]> {
    const { signal } = this.deps.abort.begin();
    try {
      const models = await this.deps.backend.listModels(signal);
      this.#installed = models.map((m) => m.name);
      return models;
    } finally {
      this.deps.abort.end();
    }
  }

  async switchTo(name: string): Promise<void> {
    const { screen, conversation } = this.deps;
    const { signal } = this.deps.abort.begin();
    try {
      const connected = await this.openOrPull(name, signal);
      screen.notice('success', `Switched to ${name} (num_ctx ${formatTokens(connected.numCtx)}).`);
      this.deps.local.preload(connected);
      const hasImages = conversation.transcript.some((m) => m.images?.length);
      if (hasImages && !supportsVision(connected.info)) {
        screen.notice(
          'info',
          `${name} cannot see images: those attached earlier are left out of what it is sent.`,
        );
      }
    } catch (error) {
      screen.notice('error', describeError(error));
    } finally {
      this.deps.abort.end();
    }
  }

  get system(): string | undefined {
    return this.deps.settings.system;
  }

  get modelSystem(): string | undefined {
    return this.deps.settings.connected?.info.system;
  }

  setSystem(text: string | undefined): void {
    this.deps.settings.setSystem(text);
  }

  instructions(): InstructionsView {
    return this.deps.instructions.view();
  }

  get pins(): readonly string[] {
    return this.deps.settings.pins;
  }

  /** Refused when the window could then no longer hold the system message, the pins, the tool definitions and what compaction needs. */
  pin(text: string): string | undefined {
    const { settings, requests } = this.deps;
    const before = settings.pins;
    settings.setPins([...before, text]);
    const connected = settings.connected;
    if (!connected) return undefined;
    const smallest = requests.smallestNumCtx();
    if (smallest.numCtx <= connected.numCtx) return undefined;
    settings.setPins(before);
    const figure = (n: number) => n.toLocaleString('en');
    return `Not pinned: with it the system message and pins take ${figure(smallest.systemTokens)} tokens, and num_ctx ${figure(connected.numCtx)} would need to be at least ${figure(smallest.numCtx)} to leave compaction its room. Shorten it, unpin another (/pins), or raise /set num_ctx.`;
  }

  unpin(n: number): boolean {
    const pins = this.deps.settings.pins;
    if (!Number.isInteger(n) || n < 1 || n > pins.length) return false;
    this.deps.settings.setPins(pins.filter((_, i) => i !== n - 1));
    return true;
  }

  lastUserText(): string | undefined {
    const last = this.deps.conversation.lastUserMessage();
    return last ? (last.typed ?? last.content) : undefined;
  }

  get think(): ThinkSetting | undefined {
    return this.deps.settings.think;
  }

  get supportsThinking(): boolean {
    return this.deps.settings.supportsThinking;
  }

  setThink(value: ThinkSetting): void {
    this.deps.settings.setThink(value);
  }

  async pull(name: string): Promise<void> {
    const { signal } = this.deps.abort.begin();
    try {
      if (await this.deps.local.pull(name, signal)) {
        this.listInBackground();
        this.deps.screen.notice('info', `Switch to it with /model ${name}.`);
      }
    } finally {
      this.deps.abort.end();
    }
  }

  async showLoaded(): Promise<void> {
    const { signal } = this.deps.abort.begin();
    try {
      await this.deps.local.showLoaded(signal);
    } catch (error) {
      this.deps.screen.notice('error', describeError(error));
    } finally {
      this.deps.abort.end();
    }
  }

  async unload(): Promise<void> {
    const connected = this.deps.settings.connected;
    if (!connected) {
      this.deps.screen.notice('error', 'Not connected to a model yet.');
      return;
    }
    const { signal } = this.deps.abort.begin();
    try {
      await this.deps.local.unload(connected, signal);
    } catch (error) {
      this.deps.screen.notice('error', describeError(error));
    } finally {
      this.deps.abort.end();
    }
  }
}
