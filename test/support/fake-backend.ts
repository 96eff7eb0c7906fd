/**
 * A scripted ChatBackend for unit tests of chat/: no server, no sockets. Each `chat` call takes
 * the next scripted reply; every request is recorded so tests can assert what the chat sent.
 */
import type { ChatBackend, ChatHandlers } from '../../src/backend/chat-backend.js';
import { BackendError, type Capability } from '../../src/backend/errors.js';
import type { ChatReply, ChatRequest, InstalledModel, ModelInfo } from '../../src/backend/interfaces.js';
import type { LoadRequest, PullProgress, RunningModel } from '../../src/backend/model-lifecycle.js';
import type { ToolCall } from '../../src/conversation/message.js';

/** One scripted `chat` answer. */
export type FakeReply =
  /** Streams `content` (and `thinking`) in two deltas each, then resolves with the reply. */
  | {
      content?: string;
      thinking?: string;
      toolCalls?: ToolCall[];
      promptEvalCount?: number;
      evalCount?: number;
      doneReason?: string;
      /** The count is of the whole prompt, as an OpenAI-compatible server's `usage` is. */
      wholePrompt?: true;
    }
  /** Streams `partial`, then rejects with a `BackendError` of `kind` carrying it. */
  | { fail: 'stream' | 'http' | 'unreachable'; message?: string; partial?: string }
  /** Rejects with the model's refusal of a capability (HTTP 400 "does not support tools"). */
  | { unsupported: Capability }
  /**
   * Streams `partial`, then waits for the abort and rejects as a cancelled request would;
   * `abortLatencyMs` later, as one over a socket does (the stream ends on its next read).
   */
  | { hang: true; partial?: string; abortLatencyMs?: number };

/** A ChatBackend that answers from a script. */
export class FakeBackend implements ChatBackend {
  readonly host = 'http://fake-backend:11434';
  /** Every `chat` request, in order (preloads and unloads are in `loads` and `unloads`). */
  readonly requests: ChatRequest[] = [];
  /** Every `loadModel` request, in order. */
  readonly loads: LoadRequest[] = [];
  /** Every model `unloadModel` was asked to free, in order. */
  readonly unloads: string[] = [];
  /** What `runningModels` answers. */
  running: RunningModel[] = [];
  /** Models `pullModel` can download (each then installed); any other name fails as Ollama's does. */
  pullable: Record<string, Partial<ModelInfo>> = {};
  private readonly script: FakeReply[] = [];
  /** `hang` replies waiting for their abort that no `hanging()` has reported yet. */
  private unreportedHangs = 0;
  private readonly hangWaiters: (() => void)[] = [];

  constructor(private readonly models: Record<string, Partial<ModelInfo>> = { 'fake:latest': {} }) {}

  /** Queues replies for the next `chat` calls. */
  enqueue(...replies: FakeReply[]): this {
    this.script.push(...replies);
    return this;
  }

  /** Resolves once a `hang` reply has streamed its partial and waits for the abort (now or later). */
  hanging(): Promise<void> {
    if (this.unreportedHangs > 0) {
      this.unreportedHangs--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.hangWaiters.push(resolve));
  }

  async listModels(): Promise<InstalledModel[]> {
    return Object.keys(this.models).map((name) => ({ name }));
  }

  async showModel(model: string): Promise<ModelInfo> {
    const info = this.models[model];
    if (!info) throw new BackendError('model-not-found', `Model '${model}' is not installed.`);
    return { name: model, capabilities: ['completion'], numCtxParam: 8192, ...info };
  }

  async runningModels(): Promise<RunningModel[]> {
    return this.running;
  }

  async loadModel(request: LoadRequest): Promise<ChatReply> {
    this.loads.push(structuredClone(request));
    return { ...emptyReply(), doneReason: 'load' };
  }

  async unloadModel(model: string): Promise<void> {
    this.unloads.push(model);
  }

  async pullModel(model: string, onProgress: (progress: PullProgress) => void): Promise<void> {
    onProgress({ status: 'pulling manifest' });
    const info = this.pullable[model];
    if (!info) {
      throw new BackendError('pull-failed', `Cannot pull ${model}: pull model manifest: file does not exist`);
    }
    onProgress({ status: 'pulling 0123456789ab', digest: 'sha256:0123456789ab', total: 100, completed: 0 });
    onProgress({ status: 'pulling 0123456789ab', digest: 'sha256:0123456789ab', total: 100, completed: 100 });
    onProgress({ status: 'success' });
    this.models[model] = info;
  }

  async chat(request: ChatRequest, handlers: ChatHandlers = {}): Promise<ChatReply> {
    this.requests.push(structuredClone(request));
    const { signal, onDelta } = handlers;
    const next = this.script.shift();
    if (!next) throw new Error(`FakeBackend: no reply scripted for request ${this.requests.length}`);
    if ('unsupported' in next) {
      throw new BackendError(
        'unsupported-capability',
        `Model does not support ${next.unsupported}.`,
        undefined,
        {
          capability: next.unsupported,
        },
      );
    }
    if ('fail' in next) {
      const partial = next.partial ?? '';
      if (partial) onDelta?.({ content: partial });
      throw new BackendError(next.fail, next.message ?? `the server failed (${next.fail})`, undefined, {
        partial: { content: partial, thinking: '' },
      });
    }
    if ('hang' in next) {
      const partial = next.partial ?? '';
      if (partial) onDelta?.({ content: partial });
      await new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        signal?.addEventListener('abort', () => resolve(), { once: true });
        const waiter = this.hangWaiters.shift();
        if (waiter) waiter();
        else this.unreportedHangs++;
      });
      if (next.abortLatencyMs) await new Promise((resolve) => setTimeout(resolve, next.abortLatencyMs));
      throw new BackendError('aborted', 'Request cancelled.', undefined, {
        partial: { content: partial, thinking: '' },
      });
    }
    const content = next.content ?? '';
    const thinking = next.thinking ?? '';
    for (const piece of halves(thinking)) onDelta?.({ thinking: piece });
    for (const piece of halves(content)) onDelta?.({ content: piece });
    if (next.toolCalls?.length) onDelta?.({ toolCalls: next.toolCalls });
    return {
      content,
      thinking,
      toolCalls: next.toolCalls ?? [],
      doneReason: next.doneReason ?? 'stop',
      metrics: {
        promptEvalCount: next.promptEvalCount ?? 0,
        evalCount: next.evalCount ?? 0,
        totalDurationNs: 0,
        loadDurationNs: 0,
        promptEvalDurationNs: 0,
        evalDurationNs: 0,
        ...(next.wholePrompt && { wholePrompt: true as const }),
      },
    };
  }
}

function emptyReply(): ChatReply {
  return {
    content: '',
    thinking: '',
    toolCalls: [],
    doneReason: '',
    metrics: {
      promptEvalCount: 0,
      evalCount: 0,
      totalDurationNs: 0,
      loadDurationNs: 0,
      promptEvalDurationNs: 0,
      evalDurationNs: 0,
    },
  };
}

function halves(text: string): string[] {
  if (!text) return [];
  const mid = Math.ceil(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)].filter(Boolean);
}
