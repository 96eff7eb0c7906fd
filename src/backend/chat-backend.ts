import type { ChatDelta, ChatReply, ChatRequest, InstalledModel, ModelInfo } from './interfaces.js';
import type { ModelLifecycle } from './model-lifecycle.js';

/** The protocol a server speaks and its name in messages: `Ollama`, `vLLM`, `llama-server`, … */
export interface ServerIdentity {
  api: 'ollama' | 'openai';
  name: string;
}

/** The server's name for messages: `Ollama` unless the backend says otherwise. */
export function serverName(backend: Pick<ChatBackend, 'server'>): string {
  return backend.server?.name ?? 'Ollama';
}

/** Per-call hooks of `chat`. */
export interface ChatHandlers {
  /** Cancels the request at any point, including while waiting for the first byte. */
  signal?: AbortSignal;
  /** Called with each piece as it streams in. An exception thrown here ends the call and is rethrown as is. */
  onDelta?: (delta: ChatDelta) => void;
  /** Told why the reply waits before it starts (a busy server asked again after a pause), in words. */
  onWait?: (reason: string) => void;
}

/**
 * What chat/ needs from a model server: stream a chat reply, describe a model, list the
 * installed ones, and the model's life there (pull, load, unload, what is loaded: ModelLifecycle). Every method rejects with a `BackendError` (errors.ts) and nothing else, so the
 * chat can keep a partial reply, drop a capability the model lacks, or tell a cancel from a failure.
 * ollama/client.ts is the implementation; tests use a scripted fake.
 */
export interface ChatBackend extends ModelLifecycle {
  /** Where the server is, as shown to the user, e.g. `http://127.0.0.1:11434`. */
  readonly host: string;
  /** What answers there; absent means Ollama's native API. */
  readonly server?: ServerIdentity;
  /** The installed models. */
  listModels(signal?: AbortSignal): Promise<InstalledModel[]>;
  /** What the server knows of one model: window, trained context, capabilities. */
  showModel(model: string, signal?: AbortSignal): Promise<ModelInfo>;
  /** Streams one reply to `onDelta` and resolves with the whole of it and the server's counts. */
  chat(request: ChatRequest, handlers?: ChatHandlers): Promise<ChatReply>;
}
