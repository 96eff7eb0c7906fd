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

/** How each OpenAI-compatible server gets a model to serve, by its name in messages. */
const SERVE_A_MODEL: Record<string, string> = {
  'llama-server': 'start llama-server with a model file (-m model.gguf)',
  vLLM: 'start vLLM with a model (vllm serve <model>)',
  SGLang: 'start SGLang with a model (--model-path <model>)',
  'LM Studio': 'load one in LM Studio (lms load <model>)',
  LiteLLM: "add one to the proxy's model_list",
};

/**
 * What to do when the server has no model, in words for its kind: `ollama pull` on Ollama; on an
 * OpenAI-compatible server, which pulls nothing, how that server is given one. No final stop.
 */
export function noModelsAdvice(server: ServerIdentity | undefined): string {
  if (server?.api !== 'openai') return 'No models are installed. Install one with `ollama pull llama3.2`';
  // An empty list names no engine: the ways of the common ones.
  const how =
    SERVE_A_MODEL[server.name] ??
    'load or serve one there (llama-server -m model.gguf, vllm serve <model>, lms load <model>)';
  const name = server.name.charAt(0).toUpperCase() + server.name.slice(1);
  return `${name} serves no model (its /v1/models list is empty): ${how}`;
}

/** A reply cut at its length limit, named as the server's protocol names it. */
export function replyLimitName(server: ServerIdentity | undefined): string {
  return server?.api === 'openai' ? 'max_tokens' : 'num_predict';
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
