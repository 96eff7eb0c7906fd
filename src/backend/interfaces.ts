import type { ReceivedToolCall, ToolCall, WireMessage } from '../conversation/message.js';

export type { ReceivedToolCall, ToolCall, WireMessage };

/** How hard a thinking model should think: on/off, or a level for models that take one. */
export type ThinkSetting = boolean | 'low' | 'medium' | 'high';

/** A JSON Schema type name. */
export type JSONSchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/**
 * One property of a tool's parameters: the subset of JSON Schema that Ollama's tool calling passes
 * to the model's template (MCP servers send nested objects, arrays, enums and unions of types).
 */
export type JSONSchemaProperty = {
  type?: JSONSchemaType | JSONSchemaType[];
  description?: string;
  enum?: (string | number | boolean | null)[];
  items?: JSONSchemaProperty;
  properties?: Record<string, JSONSchemaProperty>;
  required?: string[];
  anyOf?: JSONSchemaProperty[];
  default?: unknown;
};

/**
 * A tool's `parameters` schema as Ollama expects it in `tools[].function.parameters`. A type alias,
 * not an interface, so it stays assignable to index-signature types of wire interfaces.
 */
export type JSONSchemaObject = {
  type: 'object';
  properties: Record<string, JSONSchemaProperty>;
  required?: string[];
};

/** A tool as the chat API describes it to the model (`tools[]` of a chat request). */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: JSONSchemaObject };
}

/** One /api/chat request as ochat sends it (always streamed; `stream` is set by the client). */
export interface ChatRequest {
  model: string;
  messages: WireMessage[];
  /** Model options (`num_ctx`, `temperature`, `num_predict`, …), passed through as is. */
  options?: Record<string, unknown>;
  think?: ThinkSetting;
  tools?: ToolSchema[];
  /** How long the server keeps the model loaded: seconds, or a duration such as "5m". */
  keep_alive?: string | number;
  /**
   * False: a prompt over `num_ctx` is refused (kind `context-exceeded`) instead of losing its
   * oldest messages silently. Older servers ignore it.
   */
  truncate?: boolean;
  /**
   * `none`: the model may not call a tool although `tools` are listed (they are sent so that the
   * prompt is the chat's own, for the server's KV cache). Where the protocol has it (OpenAI's
   * `tool_choice`); Ollama's has not, so its client leaves it out and the caller checks the reply.
   */
  tool_choice?: 'none';
}

/** What one streamed chunk added: only the fields that carried something. */
export interface ChatDelta {
  content?: string;
  thinking?: string;
  /** Tool calls arrive whole, never as fragments. */
  toolCalls?: ReceivedToolCall[];
}

/**
 * Counts and durations from the final (`done`) chunk. Ollama omits a count that is zero (e.g. a
 * fully cached prompt), so a 0 here may mean "not reported".
 */
export interface ChatMetrics {
  promptEvalCount: number;
  evalCount: number;
  totalDurationNs: number;
  loadDurationNs: number;
  promptEvalDurationNs: number;
  evalDurationNs: number;
  /** False: the server sent no counts (an OpenAI-compatible server without `usage`); the two counts are 0. */
  counted?: false;
  /** `promptEvalCount` is the whole prompt, cached or not (OpenAI-compatible `usage`), unlike Ollama's. */
  wholePrompt?: true;
}

/** A complete reply: everything that streamed, accumulated, plus the final chunk's metrics. */
export interface ChatReply {
  content: string;
  thinking: string;
  /** As read by `readToolCalls`: a malformed call is kept, marked, to be answered with an error. */
  toolCalls: ReceivedToolCall[];
  /** `stop`, `length` (hit num_predict / num_ctx), `load`, `unload`; '' if the server sent none. */
  doneReason: string;
  metrics: ChatMetrics;
  /** Lines of the stream that were not JSON, skipped: what they carried is missing from the reply. */
  skippedLines?: number;
}

/**
 * The window a server runs a model with, which a request cannot change (an OpenAI-compatible
 * server's, set when it started), and where it was read, e.g. `llama-server /props`.
 */
export interface ServerWindow {
  tokens: number;
  source: string;
  /** `source` in a word or two for the status line, e.g. `/props`, `max_model_len`. */
  label: string;
  /** The server publishes no window: `tokens` is a cautious guess, until a refusal tells the real one. */
  guessed?: true;
}

/** What /api/show tells ochat about one model (or what an OpenAI-compatible server publishes of it). */
export interface ModelInfo {
  name: string;
  /** The server's own window (OpenAI-compatible servers): used unless --num-ctx or options.num_ctx say otherwise. */
  serverWindow?: ServerWindow;
  /** `PARAMETER num_ctx` from the Modelfile, if it sets one. */
  numCtxParam?: number;
  /** The context length the model was trained for (`<arch>.context_length`). */
  trainedContext?: number;
  /**
   * The Modelfile's `SYSTEM` prompt. The server applies it only to chats that do not start with a
   * system message, so a client that sends one must include it to keep it in force.
   */
  system?: string;
  /** `completion`, `tools`, `thinking`, `vision`, `insert`, `embedding`, … */
  capabilities: string[];
  family?: string;
  /** e.g. "8.2B". */
  parameterSize?: string;
  /** e.g. "Q4_K_M". */
  quantization?: string;
  /** `general.architecture`, e.g. "qwen3". */
  architecture?: string;
  /** `<arch>.embedding_length`. */
  embeddingLength?: number;
  /** The Modelfile's texts as /api/show returns them (`/show` prints them); absent when unset. */
  modelfile?: string;
  template?: string;
  license?: string;
  /** The Modelfile's `PARAMETER`s in order (`stop` may repeat). */
  parameters?: ModelParameter[];
}

/** One Modelfile parameter: its name and its value as the server prints it (strings quoted). */
export interface ModelParameter {
  name: string;
  value: string;
}

/** One model from /api/tags. */
export interface InstalledModel {
  /** Full name with tag, e.g. "qwen3:latest". */
  name: string;
  /** Bytes on disk. */
  size?: number;
  parameterSize?: string;
  quantization?: string;
  /** ISO timestamp of the last change. */
  modifiedAt?: string;
}
