import type { ChatBackend } from '../backend/chat-backend.js';
import type { AppState } from '../config/app-state.js';
import type { Config } from '../config/schema.js';
import type { MeterState } from '../conversation/context-meter.js';
import { formatTokens } from '../conversation/format-tokens.js';
import { DEFAULT_CHARS_PER_TOKEN } from '../conversation/token-estimate.js';
import { describeError } from '../text/describe-error.js';
import type { AbortSlot } from './abort-slot.js';
import type { CompactionRunner } from './compaction-runner.js';
import type { ModelContext } from './model-context.js';
import { chooseModel, openModelSession } from './model-selection.js';
import { resolveNumCtx } from './num-ctx.js';
import type { ScreenLog } from './screen-log.js';

/** What the connector works with. */
export interface ModelConnectorDeps {
  backend: ChatBackend;
  config: Config;
  appState: AppState;
  /** `-m` and `--num-ctx` from the command line. */
  flags: { model?: string; numCtx?: number };
  model: ModelContext;
  screen: ScreenLog;
  compaction: Pick<CompactionRunner, 'modelChanged' | 'numCtxChanged'>;
  /** Ctrl+C cancels the connection attempt (a server that accepts and never answers). */
  abort: AbortSlot;
  /** False in one-shot mode: nobody can press Enter to try again. */
  interactive: boolean;
}

/** Opens the model session: at start, on `/model`, and when `/set num_ctx` changes its window. */
export class ModelConnector {
  /** A resumed session's model and window: used unless `-m` / `--num-ctx` say otherwise. */
  private resumed: { model?: string; numCtx?: number } = {};
  /** The resumed session's meter, put back by the next `open` of its model and window (once). */
  private resumedMeter: MeterState | undefined;

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
   */
  async connect(keptMessage: boolean): Promise<void> {
    const { backend, config, appState, flags, screen } = this.deps;
    screen.store.update({ busy: `connecting to ${backend.host}…` });
    const { signal } = this.deps.abort.begin();
    try {
      const name = await chooseModel(
        { flag: flags.model ?? this.resumed.model, config: config.model, lastUsed: appState.lastModel },
        () => backend.listModels(signal),
      );
      await this.open(name, signal);
      const session = this.deps.model.session!;
      screen.push({
        kind: 'banner',
        id: screen.itemId(),
        model: session.name,
        host: backend.host,
        numCtx: session.numCtx,
      });
      if (session.cappedFrom) {
        screen.notice(
          'warning',
          `num_ctx ${formatTokens(session.cappedFrom)} is more than ${session.name} was trained on; using ${formatTokens(session.numCtx)}.`,
        );
      }
    } catch (error) {
      if (signal.aborted) screen.notice('warning', `Cancelled connecting to ${backend.host}.`);
      else screen.notice('error', describeError(error));
      if (this.deps.interactive) {
        const kept = keptMessage ? ' Your message is kept and will be sent then.' : '';
        screen.notice('info', `Press Enter to try again.${kept}`);
      }
    } finally {
      this.deps.abort.end();
      screen.store.update({ busy: undefined });
    }
  }

  /** Makes `name` the chat model; throws (changing nothing) when the server cannot show it. */
  async open(name: string, signal?: AbortSignal): Promise<void> {
    const { backend, appState, flags, model, screen } = this.deps;
    const configNumCtx = typeof model.options.num_ctx === 'number' ? model.options.num_ctx : undefined;
    const resumedNumCtx = name === this.resumed.model ? this.resumed.numCtx : undefined;
    const session = await openModelSession(
      backend,
      name,
      { flag: flags.numCtx ?? resumedNumCtx, config: configNumCtx },
      signal,
    );
    model.setSession(session);
    this.deps.compaction.modelChanged();
    const meter = this.resumedMeter;
    this.resumedMeter = undefined;
    // The resumed session's own model and window: it measures as it did when it was saved.
    if (meter && name === this.resumed.model && session.numCtx === this.resumed.numCtx)
      model.meter.restore(meter);
    else model.resetMeter(appState.calibration(name) ?? DEFAULT_CHARS_PER_TOKEN);
    appState.lastModel = name;
    screen.store.update({ model: name, numCtx: session.numCtx });
    model.refreshUsed();
  }

  /** `/set num_ctx default`: the Modelfile's window, else ochat's default, as for a fresh start without flags. */
  resizeToModelDefault(): void {
    const session = this.deps.model.session;
    if (!session) return;
    const { info } = session;
    const resolved = resolveNumCtx({ modelfile: info.numCtxParam, trained: info.trainedContext });
    this.resize(resolved.numCtx, resolved.source);
  }

  /** `/set num_ctx`: the new window, capped to what the model was trained on. */
  resize(value: unknown, source = '/set'): void {
    const { model, screen } = this.deps;
    if (!model.session) return;
    const trained = model.session.info.trainedContext;
    const numCtx = trained ? Math.min(Number(value), trained) : Number(value);
    if (trained && Number(value) > trained) {
      screen.notice(
        'warning',
        `${model.session.name} was trained on ${formatTokens(trained)} tokens; num_ctx capped to it.`,
      );
    }
    model.setSession({ ...model.session, numCtx, numCtxSource: source });
    this.deps.compaction.numCtxChanged();
    screen.store.update({ numCtx });
    model.refreshUsed();
  }
}
