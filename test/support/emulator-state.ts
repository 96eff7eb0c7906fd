import { DEFAULT_KEEP_ALIVE_MS } from './emulator-duration.js';
import { canonicalModelName, type ResolvedModel, resolveModel } from './emulator-models.js';
import type { PromptSegment } from './emulator-prompt-cache.js';
import type {
  ChatRequestRecord,
  EmulatorModel,
  EmulatorRegistryModel,
  Responder,
  ScriptedReply,
} from './emulator-types.js';

/** What Ollama reports as the expiry of a model kept forever (Go's largest time.Duration from now). */
const FOREVER = new Date('2262-04-11T23:47:16.854Z');

/** A model resident in the emulated server, as /api/ps shows it. */
export interface LoadedModel {
  numCtx: number;
  expiresAt: Date;
}

/** How the emulated machine behaves: the registry, the pull speed, GPU memory, load time. */
export interface EmulatorMachine {
  registry: EmulatorRegistryModel[];
  pullBytesPerSecond: number;
  gpuMemory: number;
  loadDelayMs: number;
  ignoresTruncate: boolean;
}

/** Everything the emulated server knows: models, what is loaded, scripted replies and records. */
export class EmulatorState {
  readonly requests: { method: string; path: string; body: unknown }[] = [];
  readonly chats: ChatRequestRecord[] = [];
  readonly loadRequests: ChatRequestRecord[] = [];
  readonly queue: ScriptedReply[] = [];
  readonly loaded = new Map<string, LoadedModel>();
  /** Each loaded model's KV cache slot: its last prompt and reply (emulator-prompt-cache.ts). */
  readonly promptCache = new Map<string, PromptSegment[]>();
  responder: Responder | undefined;
  loads = 0;
  pullsAborted = 0;
  /** Bytes of each layer (by digest) on disk, complete or partial: a pull resumes from them. */
  readonly blobs = new Map<string, number>();
  readonly registry: Map<string, EmulatorRegistryModel>;
  readonly pullBytesPerSecond: number;
  readonly gpuMemory: number;
  readonly loadDelayMs: number;
  readonly ignoresTruncate: boolean;
  private models = new Map<string, ResolvedModel>();

  constructor(
    models: EmulatorModel[],
    readonly tokensPerSecond: number,
    readonly defaultNumCtx: number,
    readonly version: string,
    machine: Partial<EmulatorMachine> = {},
  ) {
    this.setModels(models);
    this.registry = new Map((machine.registry ?? []).map((model) => [canonicalModelName(model.name), model]));
    this.pullBytesPerSecond = machine.pullBytesPerSecond ?? Infinity;
    this.gpuMemory = machine.gpuMemory ?? Infinity;
    this.loadDelayMs = machine.loadDelayMs ?? 0;
    this.ignoresTruncate = machine.ignoresTruncate ?? false;
  }

  /** A finished pull: the model is there from now on (replacing one of the same name). */
  install(model: EmulatorModel): void {
    const resolved = resolveModel(model);
    this.models.set(resolved.name, resolved);
  }

  /** The model is loaded with this window and has not expired. */
  isLoaded(model: ResolvedModel, numCtx: number): boolean {
    const loaded = this.liveEntry(model.name);
    return loaded !== undefined && loaded.numCtx === numCtx;
  }

  /** The loaded entry of a model, dropping it once its keep_alive has run out. */
  liveEntry(name: string): LoadedModel | undefined {
    const loaded = this.loaded.get(name);
    if (loaded && loaded.expiresAt.getTime() <= Date.now()) {
      this.unloadName(name);
      return undefined;
    }
    return loaded;
  }

  /** Frees the model now (`keep_alive: 0` with no messages, or after a reply with it). */
  unload(model: ResolvedModel): void {
    this.unloadName(model.name);
  }

  private unloadName(name: string): void {
    this.loaded.delete(name);
    this.promptCache.delete(name);
  }

  /** Replaces the model list; models that no longer exist are unloaded. */
  setModels(models: EmulatorModel[]): void {
    this.models = new Map(models.map((model) => [canonicalModelName(model.name), resolveModel(model)]));
    for (const name of this.loaded.keys()) if (!this.models.has(name)) this.unloadName(name);
  }

  /** All models, in the order given. */
  listModels(): ResolvedModel[] {
    return [...this.models.values()];
  }

  /** The model a request names ('qwen3' finds 'qwen3:latest'), if the server has it. */
  findModel(name: unknown): ResolvedModel | undefined {
    return typeof name === 'string' && name.trim() !== ''
      ? this.models.get(canonicalModelName(name))
      : undefined;
  }

  /** The window a request gets: request > Modelfile > server default, capped at the trained size. */
  numCtxFor(model: ResolvedModel | undefined, requested: unknown): number {
    const fromRequest = typeof requested === 'number' && requested > 0 ? Math.floor(requested) : undefined;
    const chosen = fromRequest ?? model?.numCtxParam ?? this.defaultNumCtx;
    // Like llm/server.go: a window beyond the trained context is silently clamped to it.
    return model ? Math.min(chosen, model.trainedContext) : chosen;
  }

  /**
   * Marks a model as used with this window, kept `keepAliveMs` from now (Infinity: forever);
   * loading it or changing its window counts a load.
   */
  markModelUsed(model: ResolvedModel, numCtx: number, keepAliveMs = DEFAULT_KEEP_ALIVE_MS): void {
    if (this.liveEntry(model.name)?.numCtx !== numCtx) {
      // A (re)load starts with an empty KV cache.
      this.loads += 1;
      this.promptCache.delete(model.name);
    }
    const expiresAt = Number.isFinite(keepAliveMs) ? new Date(Date.now() + keepAliveMs) : FOREVER;
    this.loaded.set(model.name, { numCtx, expiresAt });
  }

  /** Takes the next scripted reply: the responder's, else the queue's head, else undefined. */
  async nextReply(record: ChatRequestRecord): Promise<ScriptedReply | undefined> {
    const fromResponder = this.responder ? await this.responder(record) : undefined;
    return fromResponder ?? this.queue.shift();
  }
}
