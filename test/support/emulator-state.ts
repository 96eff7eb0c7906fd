import { canonicalModelName, type ResolvedModel, resolveModel } from './emulator-models.js';
import type { ChatRequestRecord, EmulatorModel, Responder, ScriptedReply } from './emulator-types.js';

/** How long a model stays loaded after use, as Ollama's default keep_alive. */
const KEEP_ALIVE_MS = 5 * 60 * 1000;

/** A model resident in the emulated server, as /api/ps shows it. */
export interface LoadedModel {
  numCtx: number;
  expiresAt: Date;
}

/** Everything the emulated server knows: models, what is loaded, scripted replies and records. */
export class EmulatorState {
  readonly requests: { method: string; path: string; body: unknown }[] = [];
  readonly chats: ChatRequestRecord[] = [];
  readonly queue: ScriptedReply[] = [];
  readonly loaded = new Map<string, LoadedModel>();
  responder: Responder | undefined;
  loads = 0;
  private models = new Map<string, ResolvedModel>();

  constructor(
    models: EmulatorModel[],
    readonly tokensPerSecond: number,
    readonly defaultNumCtx: number,
    readonly version: string,
  ) {
    this.setModels(models);
  }

  /** Replaces the model list; models that no longer exist are unloaded. */
  setModels(models: EmulatorModel[]): void {
    this.models = new Map(models.map((model) => [canonicalModelName(model.name), resolveModel(model)]));
    for (const name of this.loaded.keys()) if (!this.models.has(name)) this.loaded.delete(name);
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

  /** Marks a model as used with this window; loading it or changing its window counts a load. */
  markModelUsed(model: ResolvedModel, numCtx: number): void {
    if (this.loaded.get(model.name)?.numCtx !== numCtx) this.loads += 1;
    this.loaded.set(model.name, { numCtx, expiresAt: new Date(Date.now() + KEEP_ALIVE_MS) });
  }

  /** Takes the next scripted reply: the responder's, else the queue's head, else undefined. */
  async nextReply(record: ChatRequestRecord): Promise<ScriptedReply | undefined> {
    const fromResponder = this.responder ? await this.responder(record) : undefined;
    return fromResponder ?? this.queue.shift();
  }
}
