/**
 * Every public type of the Ollama emulator in one place, so a reader finds its whole contract here.
 * `emulator.ts` re-exports these; import from there.
 */

/** One model the emulator pretends to have pulled. */
export interface EmulatorModel {
  /** e.g. 'qwen3:latest'; requests may say 'qwen3' (implied ':latest'). */
  name: string;
  /** Model family, also `general.architecture`; default 'llama'. */
  family?: string;
  /** The trained maximum, `model_info["<arch>.context_length"]`; default 131072. */
  trainedContext?: number;
  /** Modelfile `PARAMETER num_ctx`; appears in /api/show `parameters` only when set. */
  numCtxParam?: number;
  /** Default ['completion']; e.g. ['completion','tools','thinking']. */
  capabilities?: string[];
  /**
   * Modelfile `SYSTEM`: in /api/show `system` (omitted when unset, as Ollama does) and applied by
   * the server when a chat's first message is not a system message.
   */
  system?: string;
  /** Modelfile `LICENSE`: /api/show `license`, omitted when unset. */
  license?: string;
  /** Other Modelfile `PARAMETER`s besides num_ctx and stop, e.g. `{ temperature: 0.6 }`. */
  parameters?: Record<string, number | string>;
  /** Bytes of weights on disk (`/api/tags` size) and in memory when loaded; default 2,019,393,189. */
  size?: number;
  /** Bytes of memory (KV cache) each token of the window adds to `/api/ps` size; default 1024. */
  kvBytesPerToken?: number;
}

/** A model the emulated registry has: `/api/pull` downloads it, then the server has it. */
export interface EmulatorRegistryModel extends EmulatorModel {
  /** Its layers' sizes in bytes, weights first; default DEFAULT_LAYERS (emulator-pull.ts). */
  layers?: number[];
  /** The pull fails with this `{"error"}` line once `afterBytes` bytes have arrived (disk full, network). */
  pullError?: { afterBytes: number; error: string };
}

/** What the emulator answers to one /api/chat request. */
export interface ScriptedReply {
  /** Reply text, streamed in token-sized pieces (4 characters each) unless `pieceChars` says otherwise. */
  content?: string;
  /**
   * Streams `content` in pieces of this many characters (e.g. 65,536 for a huge reply, which
   * 4-character pieces would take minutes to send); the token counts stay those of the text.
   */
  pieceChars?: number;
  /** Streamed before `content` as `message.thinking` (only if the model can think and `think` isn't false). */
  thinking?: string;
  /** Sent in one chunk, whole, after the content; then the done line. */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  /**
   * Sent as the `message.tool_calls` of one chunk exactly as given, after the content (and after
   * `toolCalls`): what a proxy or a broken chat template may produce, e.g. `[{function: {}}]`,
   * `[null]` or a numeric name. The line is still a well-formed chunk; only the calls are odd.
   */
  rawToolCalls?: unknown[];
  /** Generate this many filler tokens instead of `content` (benchmarks). */
  tokens?: number;
  /** Overrides the emulator's speed for this reply. */
  tokensPerSecond?: number;
  /** Delay before headers and the first chunk (a model loading). */
  firstByteDelayMs?: number;
  /** Forces the done reason; otherwise 'stop', or 'length' when `options.num_predict` cut the reply. */
  doneReason?: 'stop' | 'length';
  fault?: ReplyFault;
}

/** Ways a reply can go wrong, each as real Ollama shows it on the wire. */
export type ReplyFault =
  /** Real HTTP status and `{"error":…}` before the first byte. */
  | { kind: 'http'; status: number; error: string }
  /** 200, `afterChunks` chunks, then one `{"error":…}` line and the end: no done line. */
  | { kind: 'error-line'; afterChunks: number; error: string }
  /** The stream just ends after `afterChunks` chunks, without a done line. */
  | { kind: 'no-done'; afterChunks: number }
  /**
   * Lines that are not JSON after `afterChunks` chunks (`lines`, default one broken chunk line:
   * a proxy's or a broken server's); the stream then continues normally.
   */
  | { kind: 'malformed-line'; afterChunks: number; lines?: string[] }
  /** Headers and `afterChunks` chunks, then silence with the socket kept open (abort tests). */
  | { kind: 'hang'; afterChunks: number }
  /**
   * `afterChunks` chunks, then nothing until `until` resolves, then the rest as scripted: the test
   * decides when the next chunk arrives (what the app does as it comes).
   */
  | { kind: 'pause'; afterChunks: number; until: Promise<unknown> }
  /**
   * After `afterChunks` chunks, one chunk line that never ends: `bytes` more characters of content
   * and no newline, then the end of the body (a broken server or proxy; not something Ollama sends).
   */
  | { kind: 'endless-line'; afterChunks: number; bytes: number };

/** The parsed body of one /api/chat request, plus what the emulator made of it. */
export interface ChatRequestRecord {
  /** Exactly what the client sent (model, messages, options, think, tools, stream…). */
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary client-sent JSON.
  body: any;
  /** Prompt tokens before truncation: the messages (with any Modelfile SYSTEM applied) and the tool definitions. */
  promptTokens: number;
  /** What was reported as prompt_eval_count (after silent truncation); 0 if the request was rejected. */
  promptEvalCount: number;
  /**
   * Of `promptEvalCount`, the tokens the runner's prefix cache held from the previous request to
   * the same loaded model (`prompt_eval_cached_count`): not evaluated again. 0 if rejected.
   */
  promptCachedCount: number;
  /** Messages were dropped to fit num_ctx. */
  truncated: boolean;
  /** The window used for this request (request > Modelfile > server default, capped at the trained size). */
  numCtx: number;
  /** The canonical model name ('qwen3' → 'qwen3:latest'), or what was asked if unknown. */
  model: string;
  /** The messages the "model" actually saw: the Modelfile SYSTEM if applied, then what survived truncation. */
  keptMessages: ChatMessageLike[];
  /** Set when the request was answered with an HTTP error (unknown model, capability…). */
  error?: { status: number; message: string };
}

/** The part of a chat message the emulator reads. */
export interface ChatMessageLike {
  role: string;
  content?: string;
  [key: string]: unknown;
}

/** Decides the reply to one chat; `undefined` falls through to the queue, then the default reply. */
export type Responder = (
  req: ChatRequestRecord,
) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;

/** How to start an emulator. */
export interface EmulatorOptions {
  /** Default: [{ name: 'llama3.2:latest' }]. */
  models?: EmulatorModel[];
  /** Default speed, DEFAULT_TOKENS_PER_SECOND; Infinity = as fast as possible. */
  tokensPerSecond?: number;
  /** Server default num_ctx when neither request nor Modelfile sets it: 4096. */
  defaultNumCtx?: number;
  /** Default 0 (a random free port) on 127.0.0.1. */
  port?: number;
  /** Reported by /api/version: '0.33.0'. */
  version?: string;
  /**
   * An older server that does not know `truncate` (before it was added): the field is ignored and
   * an over-long prompt is cut silently even with `truncate: false`. Default false.
   */
  ignoresTruncate?: boolean;
  /** What `/api/pull` can download (none by default: every pull ends in `file does not exist`). */
  registry?: EmulatorRegistryModel[];
  /** Pull speed in bytes per second; default Infinity (each layer in one step). */
  pullBytesPerSecond?: number;
  /**
   * GPU memory in bytes: a loaded model larger than this has `size_vram` = this in `/api/ps`
   * (the rest runs on the CPU); default Infinity (everything fits). 0: a CPU-only server.
   */
  gpuMemory?: number;
  /**
   * Milliseconds a model takes to load (its first use, or a new num_ctx) before the first byte of
   * the reply; reported as `load_duration`. Default 0.
   */
  loadDelayMs?: number;
}

/** A running emulator. */
export interface Emulator {
  /** 'http://127.0.0.1:<port>' */
  readonly url: string;
  readonly port: number;
  /** Every request, in order; `body` is parsed JSON, the raw text if not JSON, undefined if empty. */
  readonly requests: { method: string; path: string; body: unknown }[];
  /**
   * Every /api/chat request that asks for a reply, in order, recorded when it arrives. Requests
   * with no messages (a preload, or an unload with keep_alive 0) are in `loadRequests` instead.
   */
  readonly chats: ChatRequestRecord[];
  /** Every /api/chat request with no messages (preload or unload), in order. */
  readonly loadRequests: ChatRequestRecord[];
  /** Model (re)loads: a model's first use, or a change of its num_ctx. */
  readonly loads: number;
  /** Pulls whose client went away before the end (their bytes stay as partial blobs). */
  readonly pullsAborted: number;
  /** FIFO of replies for the next /api/chat calls. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Consulted first for every chat; undefined removes it. */
  respondWith(responder: Responder | undefined): void;
  /** Replaces the model list (loaded models of vanished names are unloaded). */
  setModels(models: EmulatorModel[]): void;
  /** Stops listening and destroys open sockets (hung streams). */
  close(): Promise<void>;
}
