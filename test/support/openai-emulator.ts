/**
 * An emulator of the OpenAI-compatible servers ochat meets — vLLM, SGLang, llama.cpp's
 * llama-server, LM Studio and a LiteLLM proxy — each in its own shapes, as strictly as the real
 * one: `/v1/models` with what each engine adds (`max_model_len`, `meta`, `owned_by`), the engines'
 * own window endpoints (`/props`, `/api/v0/models`, `/model/info`), streamed
 * `/v1/chat/completions` as SSE with `reasoning` (vLLM) or `reasoning_content` (the others), tool
 * calls streamed in pieces (by index, or all with index 0), `usage` only with
 * `stream_options.include_usage`, each engine's 400 for a prompt over its window (LM Studio cuts
 * silently instead), SSE error events after a 200, 401 without the key, 429/503. It uses the Ollama
 * emulator's tokenizer (4 characters a token, 4 tokens a message), so tests predict every count.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson, waitForClose, waitUnlessClosed } from './emulator-http.js';
import { toolCallId } from './emulator-reply.js';
import {
  countPromptTokens,
  countTokens,
  countToolTokens,
  fillerTokens,
  splitIntoTokens,
} from './emulator-tokens.js';
import { fitToContext } from './emulator-truncation.js';
import type { ChatMessageLike } from './emulator-types.js';

export type OpenAiEngine = 'vllm' | 'sglang' | 'llama-server' | 'lm-studio' | 'litellm';

/** One model the server serves, and the window it runs it with. */
export interface OpenAiEmulatorModel {
  id: string;
  /** The window (vLLM's max_model_len, llama-server's per-slot n_ctx, …); default 8192. */
  window?: number;
}

/** What the emulator answers to one chat request. */
export interface OpenAiScriptedReply {
  content?: string;
  /** Streamed before the content, in the engine's reasoning field. */
  thinking?: string;
  /** Streamed in pieces: the call's id and name first, then its arguments JSON a few characters at a time. */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  /** Generate this many filler tokens instead of `content`. */
  tokens?: number;
  firstByteDelayMs?: number;
  fault?: OpenAiFault;
}

export type OpenAiFault =
  /** An error status before any byte, with the engine's body; `retryAfter` seconds as a header. */
  | { kind: 'http'; status: number; message: string; retryAfter?: number }
  /** 200, `afterChunks` chunks, then `data: {"error": …}` and the end. */
  | { kind: 'error-event'; afterChunks: number; message: string }
  /** Headers and `afterChunks` chunks, then silence with the socket open. */
  | { kind: 'hang'; afterChunks: number }
  /** After `afterChunks` chunks, `data:` events that are not JSON (a broken proxy), then the rest. */
  | { kind: 'malformed-events'; afterChunks: number; events: string[] };

/** One chat request and what the emulator made of it. */
export interface OpenAiChatRecord {
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary client-sent JSON.
  body: any;
  /** The Authorization header as sent. */
  authorization?: string;
  /** Prompt tokens as sent: the messages and the tool definitions. */
  promptTokens: number;
  /** What `usage.prompt_tokens` said (LM Studio: after its silent cut); 0 when refused. */
  promptEvalCount: number;
  /** LM Studio dropped the oldest messages to fit. */
  truncated: boolean;
  window: number;
  error?: { status: number; message: string };
}

export interface OpenAiEmulatorOptions {
  engine: OpenAiEngine;
  models?: OpenAiEmulatorModel[];
  /** Every request must carry `Authorization: Bearer <apiKey>`, else 401. */
  apiKey?: string;
  /** Every tool call of a reply streamed with `index: 0` (told apart only by id), as some servers do. */
  toolCallsAllIndexZero?: boolean;
  /** A prompt over the window is refused after a 200, by an SSE error event, not a 400. */
  contextErrorInStream?: boolean;
  /** Never sends `usage`, even when asked (a server or proxy that does not count). */
  noUsage?: boolean;
  /** The window the engine's endpoints report, when it is not the one it runs with (LM Studio after a reload). */
  reportedWindow?: number;
}

export interface OpenAiEmulator {
  readonly url: string;
  readonly engine: OpenAiEngine;
  /** Every request: method, path, parsed body, headers. */
  readonly requests: { method: string; path: string; body: unknown; headers: IncomingHttpHeaders }[];
  /** Every `/v1/chat/completions` request, in order. */
  readonly chats: OpenAiChatRecord[];
  enqueue(...replies: OpenAiScriptedReply[]): void;
  /** Consulted first for every chat; undefined falls through to the queue, then an echo. */
  respondWith(responder: ((record: OpenAiChatRecord) => OpenAiScriptedReply | undefined) | undefined): void;
  close(): Promise<void>;
}

/** Where each engine puts a thinking model's reasoning in a delta. */
const REASONING_FIELD: Record<OpenAiEngine, string> = {
  vllm: 'reasoning',
  sglang: 'reasoning_content',
  'llama-server': 'reasoning_content',
  'lm-studio': 'reasoning_content',
  litellm: 'reasoning_content',
};

/** Fields of Ollama's /api/chat that no chat-completions server takes (OpenAI answers "Unrecognized request argument"). */
const OLLAMA_FIELDS = ['options', 'keep_alive', 'think', 'truncate', 'format'];

export async function startOpenAiEmulator(options: OpenAiEmulatorOptions): Promise<OpenAiEmulator> {
  const models = (options.models ?? [{ id: 'qwen3-8b' }]).map((m) => ({
    id: m.id,
    window: m.window ?? 8192,
  }));
  const requests: OpenAiEmulator['requests'] = [];
  const chats: OpenAiChatRecord[] = [];
  const queue: OpenAiScriptedReply[] = [];
  let responder: ((record: OpenAiChatRecord) => OpenAiScriptedReply | undefined) | undefined;
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://emulator').pathname;
    const body = await readBody(req);
    requests.push({ method, path, body, headers: req.headers });
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`)
      return sendEngineError(res, options.engine, 401, 'Unauthorized', 'authentication_error');
    const route = `${method} ${path}`;
    if (route === 'GET /v1/models') return sendJson(res, 200, modelList(options.engine, models));
    if (route === 'POST /v1/chat/completions') return chat(req, res, body);
    const reported = options.reportedWindow
      ? models.map((m) => ({ ...m, window: options.reportedWindow! }))
      : models;
    const extra = engineEndpoint(options.engine, route, reported);
    if (extra !== undefined) return sendJson(res, 200, extra);
    // FastAPI's (vLLM, SGLang, LiteLLM) and llama-server's 404s.
    sendJson(
      res,
      404,
      options.engine === 'llama-server'
        ? { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }
        : { detail: 'Not Found' },
    );
  }

  async function chat(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const messages = (Array.isArray(request.messages) ? request.messages : []) as ChatMessageLike[];
    const model =
      models.find((m) => m.id === request.model) ??
      (singleModelServer(options.engine) ? models[0] : undefined);
    const window = model?.window ?? 0;
    const promptTokens = countPromptTokens(messages.map(asText)) + countToolTokens(request.tools);
    const record: OpenAiChatRecord = {
      body,
      authorization: req.headers.authorization,
      promptTokens,
      promptEvalCount: 0,
      truncated: false,
      window,
    };
    chats.push(record);
    const reject = (
      status: number,
      message: string,
      type = 'BadRequestError',
      extra: Record<string, unknown> = {},
    ) => {
      record.error = { status, message };
      sendEngineError(res, options.engine, status, message, type, extra);
    };
    const shape = requestShapeError(request);
    if (shape) return reject(400, shape);
    if (!model) return reject(404, `The model \`${String(request.model)}\` does not exist.`, 'NotFoundError');
    const maxTokens = typeof request.max_tokens === 'number' ? request.max_tokens : undefined;
    const over = contextRefusal(options.engine, promptTokens, maxTokens, window);
    if (over) {
      if (!options.contextErrorInStream) return reject(400, over.message, over.type, over.extra);
      record.error = { status: 200, message: over.message };
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ error: { object: 'error', message: over.message, type: over.type, param: null, code: 400 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
      return;
    }
    let kept = messages;
    if (options.engine === 'lm-studio') {
      // LM Studio: no error; the oldest messages fall out of the window unsaid (lmstudio #1806).
      const fitted = fitToContext(messages.map(asText), window, countToolTokens(request.tools));
      kept = fitted.kept;
      record.truncated = fitted.truncated;
      record.promptEvalCount = fitted.promptEvalCount;
    } else record.promptEvalCount = promptTokens;
    const scripted = responder?.(record) ?? queue.shift() ?? echo(kept);
    if (!(await waitUnlessClosed(res, scripted.firstByteDelayMs ?? 0))) return;
    if (scripted.fault?.kind === 'http') {
      if (scripted.fault.retryAfter !== undefined)
        res.setHeader('Retry-After', String(scripted.fault.retryAfter));
      const type = scripted.fault.status === 429 ? 'rate_limit_error' : 'unavailable_error';
      return reject(scripted.fault.status, scripted.fault.message, type);
    }
    await stream(res, request, record, scripted, maxTokens);
  }

  async function stream(
    res: ServerResponse,
    request: Record<string, unknown>,
    record: OpenAiChatRecord,
    scripted: OpenAiScriptedReply,
    maxTokens: number | undefined,
  ): Promise<void> {
    const id = `chatcmpl-${toolCallId().slice(5)}`;
    const created = Math.floor(Date.now() / 1000);
    const model = String(request.model);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    const limit = maxTokens ?? record.window - record.promptEvalCount;
    const thinking = scripted.thinking ? splitIntoTokens(scripted.thinking) : [];
    const content =
      scripted.tokens !== undefined ? fillerTokens(scripted.tokens) : splitIntoTokens(scripted.content ?? '');
    const cut = thinking.length + content.length > limit;
    const pieces: Record<string, unknown>[] = [
      { role: 'assistant', content: '' },
      ...thinking.slice(0, limit).map((piece) => ({ [REASONING_FIELD[options.engine]]: piece })),
      ...content.slice(0, Math.max(0, limit - thinking.length)).map((piece) => ({ content: piece })),
    ];
    let completionTokens = Math.min(limit, thinking.length + content.length);
    // tool_choice "none": the engines constrain the output, so no tool call comes back.
    const calls = cut || request.tool_choice === 'none' ? [] : (scripted.toolCalls ?? []);
    calls.forEach((call, i) => {
      const index = options.toolCallsAllIndexZero ? 0 : i;
      const args = JSON.stringify(call.arguments);
      pieces.push({
        tool_calls: [
          { index, id: toolCallId(), type: 'function', function: { name: call.name, arguments: '' } },
        ],
      });
      for (let at = 0; at < args.length; at += 7)
        pieces.push({ tool_calls: [{ index, function: { arguments: args.slice(at, at + 7) } }] });
      completionTokens += countTokens(args) + countTokens(call.name);
    });
    const finish = cut ? 'length' : calls.length ? 'tool_calls' : 'stop';
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const fault = scripted.fault;
    for (const [n, delta] of pieces.entries()) {
      if (fault?.kind === 'hang' && n === fault.afterChunks) return waitForClose(res);
      if (fault?.kind === 'error-event' && n === fault.afterChunks) {
        res.write(
          `data: ${JSON.stringify({ error: { object: 'error', message: fault.message, type: 'InternalServerError', param: null, code: 500 } })}\n\n`,
        );
        res.end('data: [DONE]\n\n');
        return;
      }
      if (fault?.kind === 'malformed-events' && n === fault.afterChunks)
        for (const data of fault.events) res.write(`data: ${data}\n\n`);
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(chunk(delta))}\n\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const last: Record<string, unknown> = chunk({}, finish);
    if (options.engine === 'llama-server')
      last.timings = {
        prompt_n: record.promptEvalCount,
        prompt_ms: 12.5,
        cache_n: 0,
        predicted_n: completionTokens,
        predicted_ms: 40,
      };
    res.write(`data: ${JSON.stringify(last)}\n\n`);
    const streamOptions = request.stream_options as Record<string, unknown> | undefined;
    if (streamOptions?.include_usage === true && !options.noUsage) {
      const usage = {
        prompt_tokens: record.promptEvalCount,
        completion_tokens: completionTokens,
        total_tokens: record.promptEvalCount + completionTokens,
      };
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    engine: options.engine,
    requests,
    chats,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    respondWith: (next) => {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** llama-server and SGLang serve one model and answer whatever `model` says. */
function singleModelServer(engine: OpenAiEngine): boolean {
  return engine === 'llama-server' || engine === 'sglang';
}

/** Content parts (text and images) counted as their text. */
function asText(message: ChatMessageLike): ChatMessageLike {
  if (!Array.isArray(message.content)) return message;
  const text = (message.content as { type?: string; text?: string }[])
    .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
    .join('');
  return { ...message, content: text };
}

/** `/v1/models` as each engine answers it. */
function modelList(engine: OpenAiEngine, models: Required<OpenAiEmulatorModel>[]) {
  const created = 1764800000;
  const data = models.map((m) => {
    switch (engine) {
      case 'vllm':
        return {
          id: m.id,
          object: 'model',
          created,
          owned_by: 'vllm',
          root: m.id,
          parent: null,
          max_model_len: m.window,
          permission: [],
        };
      case 'sglang':
        return {
          id: m.id,
          object: 'model',
          created,
          owned_by: 'sglang',
          root: m.id,
          max_model_len: m.window,
        };
      case 'llama-server':
        return {
          id: m.id,
          object: 'model',
          created,
          owned_by: 'llamacpp',
          meta: {
            vocab_type: 1,
            n_vocab: 32064,
            n_ctx_train: 32768,
            n_embd: 64,
            n_params: 4_000_000,
            size: 5_000_000,
          },
        };
      case 'lm-studio':
        return { id: m.id, object: 'model', owned_by: 'organization_owner' };
      default:
        return { id: m.id, object: 'model', created: 1677610602, owned_by: 'openai' };
    }
  });
  return { object: 'list', data };
}

/** The engine's own endpoints that say the window; undefined for a route it does not have. */
function engineEndpoint(
  engine: OpenAiEngine,
  route: string,
  models: Required<OpenAiEmulatorModel>[],
): unknown {
  if (engine === 'llama-server' && route === 'GET /props')
    return {
      default_generation_settings: { n_ctx: models[0].window, params: { n_predict: -1 } },
      total_slots: 1,
      model_path: `/models/${models[0].id}.gguf`,
      chat_template: '{{ messages }}',
      build_info: 'b6000-emulated',
    };
  if (engine === 'llama-server' && route === 'GET /health') return { status: 'ok' };
  if (engine === 'lm-studio' && route === 'GET /api/v0/models')
    return {
      object: 'list',
      data: models.map((m) => ({
        id: m.id,
        object: 'model',
        type: 'llm',
        publisher: 'lmstudio-community',
        arch: 'qwen3',
        compatibility_type: 'gguf',
        quantization: 'Q4_K_M',
        state: 'loaded',
        max_context_length: 32768,
        loaded_context_length: m.window,
      })),
    };
  if (engine === 'litellm' && route === 'GET /model/info')
    return {
      data: models.map((m) => ({
        model_name: m.id,
        litellm_params: { model: `hosted_vllm/${m.id}` },
        model_info: { max_input_tokens: m.window, max_output_tokens: 4096, max_tokens: m.window },
      })),
    };
  return undefined;
}

/** The engine's refusal of a prompt over its window, in its own words and body. */
function contextRefusal(
  engine: OpenAiEngine,
  prompt: number,
  maxTokens: number | undefined,
  window: number,
): { message: string; type: string; extra?: Record<string, unknown> } | undefined {
  switch (engine) {
    case 'llama-server':
      return prompt > window
        ? {
            message: `request (${prompt} tokens) exceeds the available context size (${window} tokens), try increasing it`,
            type: 'exceed_context_size_error',
            extra: { n_prompt_tokens: prompt, n_ctx: window },
          }
        : undefined;
    case 'vllm':
    case 'litellm': {
      // vLLM counts the completion asked for too; with no max_tokens, only a prompt that leaves no room.
      const asked = prompt + (maxTokens ?? 0);
      if (asked <= window && prompt < window) return undefined;
      const vllm = `This model's maximum context length is ${window} tokens. However, you requested ${asked} tokens (${prompt} in the messages, ${maxTokens ?? 0} in the completion). Please reduce the length of the messages or completion.`;
      return engine === 'vllm'
        ? { message: vllm, type: 'BadRequestError' }
        : {
            message: `litellm.ContextWindowExceededError: litellm.BadRequestError: Hosted_vllmException - ${vllm}`,
            type: 'None',
          };
    }
    case 'sglang':
      return prompt >= window
        ? {
            message: `The input (${prompt} tokens) is longer than the model's context length (${window} tokens).`,
            type: 'BadRequestError',
          }
        : undefined;
    case 'lm-studio':
      return undefined;
  }
}

/** An error in the engine's body shape. */
function sendEngineError(
  res: ServerResponse,
  engine: OpenAiEngine,
  status: number,
  message: string,
  type: string,
  extra: Record<string, unknown> = {},
): void {
  const body =
    engine === 'vllm' || engine === 'sglang'
      ? { object: 'error', message, type, param: null, code: status }
      : engine === 'litellm'
        ? { error: { message, type, param: null, code: String(status) } }
        : engine === 'lm-studio'
          ? { error: message }
          : { error: { code: status, message, type, ...extra } };
  sendJson(res, status, body);
}

/**
 * Why a chat request is malformed, in a 400's words, or undefined. As strict as the pydantic
 * models of vLLM and SGLang and as OpenAI itself: tool calls with an id, a type and arguments as a
 * JSON string; each tool result answering a call of an earlier assistant message by its id.
 */
function requestShapeError(request: Record<string, unknown>): string | undefined {
  for (const field of OLLAMA_FIELDS)
    if (field in request) return `Unrecognized request argument supplied: ${field}`;
  if (!Array.isArray(request.messages) || request.messages.length === 0) return 'messages: Field required';
  if (request.stream !== true) return 'the emulator streams only: stream must be true';
  const callIds = new Set<string>();
  for (const [i, message] of (request.messages as Record<string, unknown>[]).entries()) {
    const role = message.role;
    if (!['system', 'user', 'assistant', 'tool'].includes(String(role)))
      return `messages.${i}.role: Input should be 'system', 'user', 'assistant' or 'tool'`;
    if (role === 'assistant' && message.tool_calls !== undefined) {
      if (!Array.isArray(message.tool_calls)) return `messages.${i}.tool_calls: Input should be a valid list`;
      for (const [k, call] of (message.tool_calls as Record<string, unknown>[]).entries()) {
        const fn = call.function as Record<string, unknown> | undefined;
        if (typeof call.id !== 'string' || call.id === '')
          return `messages.${i}.tool_calls.${k}.id: Field required`;
        if (call.type !== 'function') return `messages.${i}.tool_calls.${k}.type: Input should be 'function'`;
        if (typeof fn?.name !== 'string')
          return `messages.${i}.tool_calls.${k}.function.name: Field required`;
        if (typeof fn.arguments !== 'string')
          return `messages.${i}.tool_calls.${k}.function.arguments: Input should be a valid string`;
        try {
          JSON.parse(fn.arguments);
        } catch {
          return `messages.${i}.tool_calls.${k}.function.arguments: not valid JSON`;
        }
        callIds.add(call.id);
      }
    }
    if (role === 'tool') {
      if (typeof message.tool_call_id !== 'string') return `messages.${i}.tool_call_id: Field required`;
      if (!callIds.has(message.tool_call_id))
        return `messages.${i}: tool_call_id '${message.tool_call_id}' answers no tool call of an earlier assistant message`;
    }
    if (
      typeof message.content !== 'string' &&
      !Array.isArray(message.content) &&
      !(role === 'assistant' && message.tool_calls)
    )
      return `messages.${i}.content: Input should be a valid string`;
  }
  return undefined;
}

/** The reply when nothing is scripted: an echo of the last user message. */
function echo(kept: readonly ChatMessageLike[]): OpenAiScriptedReply {
  const last = [...kept].reverse().find((m) => m.role === 'user');
  const text = typeof last?.content === 'string' ? last.content : '';
  return { content: `Echo: ${text.slice(0, 200)}` };
}
