import { abortable } from '../async/abortable.js';
import type { ChatBackend, ChatHandlers, ServerIdentity } from '../backend/chat-backend.js';
import { BackendError } from '../backend/errors.js';
import type {
  ChatReply,
  ChatRequest,
  InstalledModel,
  ModelInfo,
  ServerWindow,
} from '../backend/interfaces.js';
import type { LoadRequest, PullProgress, RunningModel } from '../backend/model-lifecycle.js';
import { httpFetch } from '../ollama/http-fetch.js';
import { IdleWatch } from '../ollama/idle-timeout.js';
import { bodyChunks, type FetchLike, type ResponseLike } from '../ollama/wire-response.js';
import { ENGINE_NAMES, type Engine, engineOf, isRecord } from './engines.js';
import { mapServerError, ServerStatusError, StreamErrorEvent } from './errors.js';
import { toChatCompletionBody } from './request-body.js';
import { sseEvents } from './sse-events.js';
import { StreamAssembler } from './stream-assembler.js';

/** How to reach an OpenAI-compatible server. */
export interface OpenAiClientOptions {
  /** The URL as given (`http://gpu:8000` or `http://gpu:8000/v1`), normalised by parseHost. */
  host: string;
  /** Sent as `Authorization: Bearer …`, with the variable it came from for messages. */
  apiKey?: { value: string; variable: string };
  /** Extra headers for every request (config `headers:`, `${VAR}` already expanded). */
  headers?: Record<string, string>;
  fetch?: FetchLike;
  /** Every request ends when the server sends no byte for this long (config `request_timeout_s`). */
  requestTimeoutMs?: number;
  /** How long to wait before each retry of a busy server (429, 503); tests shorten it. */
  retryDelaysMs?: readonly number[];
}

/** A busy server (429, 503) is asked again after these pauses, unless it says how long (Retry-After). */
const RETRY_DELAYS_MS = [1000, 3000, 8000];
/** The longest a Retry-After is waited for: a longer one is said and the request given up. */
const MAX_RETRY_AFTER_MS = 60_000;
/** A window probe (`/props`, `/api/v0/models`, `/model/info`) that takes longer is given up. */
const PROBE_TIMEOUT_MS = 5000;

/** When nothing the server publishes gives the window: small enough for any server ochat meets. */
export const UNKNOWN_WINDOW = 4096;

/**
 * ochat's door to an OpenAI-compatible server — vLLM, SGLang, llama-server, LM Studio, a LiteLLM
 * proxy: streamed `/v1/chat/completions` over ochat's own node:http fetch (no undici, no SDK),
 * SSE read by eventsource-parser; the model list from `/v1/models`; the window from what each
 * engine publishes. Every method rejects with a `BackendError` naming the server.
 */
export class OpenAiClient implements ChatBackend {
  readonly host: string;
  /** The server's root (the host without a trailing `/v1`), for the engines' own endpoints. */
  private readonly root: string;
  private readonly baseFetch: FetchLike;
  private readonly requestTimeoutMs: number;
  private readonly retryDelaysMs: readonly number[];
  private engine: Engine = 'unknown';
  private listed: Promise<Record<string, unknown>[]> | undefined;

  constructor(private readonly options: OpenAiClientOptions) {
    this.host = options.host;
    this.root = options.host.replace(/\/v1$/, '');
    this.baseFetch = options.fetch ?? httpFetch;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 120_000;
    this.retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  }

  get server(): ServerIdentity {
    return { api: 'openai', name: ENGINE_NAMES[this.engine] };
  }

  /** `/v1/models`: the models the server serves. */
  async listModels(signal?: AbortSignal): Promise<InstalledModel[]> {
    try {
      const entries = await abortable(this.modelEntries(signal, true), signal);
      return entries.flatMap((entry) => (typeof entry.id === 'string' ? [{ name: entry.id }] : []));
    } catch (error) {
      throw this.failure(error, { signal });
    }
  }

  /** The model's entry and the window the server runs it with, read where its engine publishes it. */
  async showModel(model: string, signal?: AbortSignal): Promise<ModelInfo> {
    let ids: string[] = [];
    try {
      const entries = await abortable(this.modelEntries(signal, false), signal);
      const entry = entries.find((e) => e.id === model);
      ids = entries.flatMap((e) => (typeof e.id === 'string' ? [e.id] : []));
      if (!entry && ids.length > 0)
        throw new ServerStatusError(
          404,
          { error: { message: `The model \`${model}\` does not exist.` } },
          '',
        );
      const serverWindow = await this.windowOf(model, entry, signal);
      const info: ModelInfo = { name: model, capabilities: ['completion', 'tools'] };
      if (this.thinkingSwitch) info.capabilities.push('thinking');
      if (serverWindow) info.serverWindow = serverWindow;
      const trained = isRecord(entry?.meta) ? entry.meta.n_ctx_train : undefined;
      if (typeof trained === 'number' && trained > 0) info.trainedContext = trained;
      return info;
    } catch (error) {
      throw this.failure(error, { model, signal, models: ids });
    }
  }

  /** Streams one reply; a busy server (429, 503) is asked again, after a pause said through `onWait`. */
  async chat(request: ChatRequest, handlers: ChatHandlers = {}): Promise<ChatReply> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.chatOnce(request, handlers);
      } catch (error) {
        const delay = this.retryDelay(error, attempt);
        if (delay === undefined || handlers.signal?.aborted) throw error;
        const seconds = Math.max(1, Math.round(delay / 1000));
        const tries = `${attempt + 1} of ${this.retryDelaysMs.length}`;
        handlers.onWait?.(`${(error as BackendError).message} Trying again in ${seconds} s (${tries}).`);
        await sleep(delay, handlers.signal);
      }
    }
  }

  /** No models to download: a server of this kind serves what it was started with. */
  async pullModel(_model: string, _onProgress: (progress: PullProgress) => void): Promise<void> {
    throw this.ollamaOnly('/pull', 'it serves the models it was started with');
  }

  async runningModels(): Promise<RunningModel[]> {
    throw this.ollamaOnly('/ps', 'it does not say what it has loaded or where');
  }

  /** Nothing to warm up: the server loaded its model when it started. */
  async loadModel(_request: LoadRequest): Promise<ChatReply> {
    return emptyReply('load');
  }

  async unloadModel(): Promise<void> {
    throw this.ollamaOnly('/unload', 'its model stays loaded while it runs');
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────

  /** vLLM, SGLang and llama-server switch a model's thinking by `chat_template_kwargs.enable_thinking`. */
  private get thinkingSwitch(): boolean {
    return this.engine === 'vllm' || this.engine === 'sglang' || this.engine === 'llama-server';
  }

  private ollamaOnly(command: string, why: string): BackendError {
    return new BackendError(
      'unsupported-by-server',
      `${command} is Ollama's: ${this.server.name} at ${this.host} has no such thing (${why}).`,
    );
  }

  private retryDelay(error: unknown, attempt: number): number | undefined {
    if (!(error instanceof BackendError) || error.kind !== 'busy') return undefined;
    // Streamed text would be lost: only a request refused before its reply is asked again.
    if (error.partial && (error.partial.content || error.partial.thinking)) return undefined;
    if (attempt >= this.retryDelaysMs.length) return undefined;
    if (error.retryAfterMs !== undefined)
      return error.retryAfterMs <= MAX_RETRY_AFTER_MS ? error.retryAfterMs : undefined;
    return this.retryDelaysMs[attempt];
  }

  private async chatOnce(request: ChatRequest, handlers: ChatHandlers): Promise<ChatReply> {
    const { signal, onDelta } = handlers;
    const assembler = new StreamAssembler();
    const finished = new AbortController();
    const requestSignal = signal ? AbortSignal.any([signal, finished.signal]) : finished.signal;
    let handlerFailure: { error: unknown } | undefined;
    const pass = (delta: ReturnType<StreamAssembler['add']>) => {
      if (!delta || !onDelta) return;
      try {
        onDelta(delta);
      } catch (error) {
        handlerFailure = { error };
        throw error;
      }
    };
    const stream = async (): Promise<ChatReply> => {
      const body = toChatCompletionBody(request, { thinkingSwitch: this.thinkingSwitch });
      const response = await this.send(`${this.root}/v1/chat/completions`, requestSignal, body);
      if (!response.body)
        throw new BackendError('incomplete-stream', `${this.server.name} sent an empty reply.`);
      // Events whose data is not a JSON object: counted, so the turn says the reply may lack them.
      let skippedLines = 0;
      for await (const event of sseEvents(bodyChunks(response.body))) {
        requestSignal.throwIfAborted();
        if (event.data.trim() === '[DONE]') break;
        const chunk = parseJson(event.data);
        if (event.event === 'error' || (isRecord(chunk) && chunk.error !== undefined && !chunk.choices))
          throw new StreamErrorEvent(chunk ?? event.data);
        if (!isRecord(chunk)) {
          skippedLines++;
          continue;
        }
        pass(assembler.add(chunk));
        if (assembler.capped)
          throw new BackendError(
            'stream',
            `The reply passed ${Math.round(assembler.maxChars / (1024 * 1024))} MB and was stopped.`,
          );
      }
      pass(assembler.takeToolCalls());
      const reply = assembler.finish();
      return skippedLines ? { ...reply, skippedLines } : reply;
    };
    try {
      return await abortable(stream(), signal);
    } catch (error) {
      if (handlerFailure) throw handlerFailure.error;
      throw this.failure(error, { model: request.model, signal, partial: assembler.partial() });
    } finally {
      finished.abort();
    }
  }

  /** `/v1/models` entries, fetched once (`fresh`: again); the first one names the engine. */
  private modelEntries(signal: AbortSignal | undefined, fresh: boolean): Promise<Record<string, unknown>[]> {
    if (!this.listed || fresh) {
      this.listed = this.getJson(`${this.root}/v1/models`, signal).then((body) => {
        const data = isRecord(body) && Array.isArray(body.data) ? body.data.filter(isRecord) : [];
        if (this.engine === 'unknown') this.engine = engineOf(data[0]);
        return data;
      });
      this.listed.catch(() => {
        this.listed = undefined;
      });
    }
    return this.listed;
  }

  /**
   * The window of `model` from what the server publishes: vLLM's and SGLang's `max_model_len`,
   * llama-server's per-slot `n_ctx` (/props), LM Studio's `loaded_context_length`, LiteLLM's
   * `max_input_tokens` (/model/info). A server that is none of these is asked each in turn.
   */
  private async windowOf(
    model: string,
    entry: Record<string, unknown> | undefined,
    signal: AbortSignal | undefined,
  ): Promise<ServerWindow> {
    const maxModelLen = entry?.max_model_len;
    if (typeof maxModelLen === 'number' && maxModelLen > 0)
      return {
        tokens: maxModelLen,
        source: `${this.server.name} /v1/models max_model_len`,
        label: 'max_model_len',
      };
    const probes: [Engine, () => Promise<number | undefined>][] = [
      ['llama-server', () => this.llamaServerWindow(signal)],
      ['lm-studio', () => this.lmStudioWindow(model, signal)],
      ['litellm', () => this.liteLlmWindow(model, signal)],
    ];
    for (const [engine, probe] of probes) {
      if (this.engine !== 'unknown' && this.engine !== engine) continue;
      const tokens = await probe().catch(() => undefined);
      if (tokens === undefined) continue;
      this.engine = engine;
      return { tokens, ...WINDOW_SOURCES[engine] };
    }
    const metaCtx = isRecord(entry?.meta) ? entry.meta.n_ctx : undefined;
    if (typeof metaCtx === 'number' && metaCtx > 0)
      return { tokens: metaCtx, source: `${this.server.name} /v1/models meta.n_ctx`, label: 'meta.n_ctx' };
    return {
      tokens: UNKNOWN_WINDOW,
      source: 'a cautious guess: the server publishes no window',
      label: 'guessed',
      guessed: true,
    };
  }

  private async llamaServerWindow(signal: AbortSignal | undefined): Promise<number | undefined> {
    const props = await this.getJson(`${this.root}/props`, signal, PROBE_TIMEOUT_MS);
    const settings = isRecord(props) ? props.default_generation_settings : undefined;
    const nCtx = isRecord(settings) ? settings.n_ctx : undefined;
    return typeof nCtx === 'number' && nCtx > 0 ? nCtx : undefined;
  }

  private async lmStudioWindow(model: string, signal: AbortSignal | undefined): Promise<number | undefined> {
    const body = await this.getJson(`${this.root}/api/v0/models`, signal, PROBE_TIMEOUT_MS);
    const data = isRecord(body) && Array.isArray(body.data) ? body.data.filter(isRecord) : [];
    const loaded = data.find((m) => m.id === model)?.loaded_context_length;
    return typeof loaded === 'number' && loaded > 0 ? loaded : undefined;
  }

  private async liteLlmWindow(model: string, signal: AbortSignal | undefined): Promise<number | undefined> {
    const body = await this.getJson(`${this.root}/model/info`, signal, PROBE_TIMEOUT_MS);
    const data = isRecord(body) && Array.isArray(body.data) ? body.data.filter(isRecord) : [];
    const info = data.find((m) => m.model_name === model)?.model_info;
    const tokens = isRecord(info) ? info.max_input_tokens : undefined;
    return typeof tokens === 'number' && tokens > 0 ? tokens : undefined;
  }

  private async getJson(url: string, signal: AbortSignal | undefined, timeoutMs?: number): Promise<unknown> {
    const response = await this.send(url, signal, undefined, timeoutMs);
    return JSON.parse(await response.text());
  }

  /**
   * One request with the key and headers, ended by the caller's signal or `timeoutMs` of
   * silence; an error status rejects with the server's body kept whole.
   */
  private async send(
    url: string,
    signal: AbortSignal | undefined,
    body: unknown,
    timeoutMs = this.requestTimeoutMs,
  ): Promise<ResponseLike> {
    const idle = new IdleWatch(timeoutMs);
    const signals = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
    const headers: Record<string, string> = {
      Accept: body === undefined ? 'application/json' : 'text/event-stream',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    Object.assign(headers, this.options.headers);
    if (this.options.apiKey) headers.Authorization = `Bearer ${this.options.apiKey.value}`;
    let response: ResponseLike;
    try {
      response = await this.baseFetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signals,
      });
    } catch (error) {
      idle.stop();
      throw idle.fired ? idle.signal.reason : error;
    }
    idle.touch();
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      idle.stop();
      throw new ServerStatusError(response.status, parseJson(text), text, retryAfterMs(response));
    }
    if (!response.body) {
      idle.stop();
      return response;
    }
    const chunks = idle.watch(bodyChunks(response.body));
    const text = async () => {
      const decoder = new TextDecoder();
      let whole = '';
      for await (const chunk of chunks) whole += decoder.decode(chunk, { stream: true });
      return whole + decoder.decode();
    };
    return {
      ok: true,
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: chunks,
      text,
      json: async () => JSON.parse(await text()),
    };
  }

  private failure(
    error: unknown,
    context: {
      model?: string;
      signal?: AbortSignal;
      partial?: { content: string; thinking: string };
      models?: readonly string[];
    },
  ): BackendError {
    if (context.signal?.aborted)
      return new BackendError('aborted', 'Request cancelled.', undefined, {
        partial: context.partial,
        cause: error,
      });
    return mapServerError(error, {
      name: this.server.name,
      host: this.host,
      model: context.model,
      partial: context.partial,
      keyVariable: this.options.apiKey?.variable,
      models: context.models,
    });
  }
}

/** Where each engine publishes its window: in words, and in a word for the status line. */
const WINDOW_SOURCES: Record<Engine, { source: string; label: string }> = {
  'llama-server': { source: 'llama-server /props n_ctx', label: '/props' },
  'lm-studio': { source: 'LM Studio loaded_context_length', label: 'loaded_context_length' },
  litellm: { source: 'LiteLLM /model/info max_input_tokens', label: '/model/info' },
  vllm: { source: 'vLLM max_model_len', label: 'max_model_len' },
  sglang: { source: 'SGLang max_model_len', label: 'max_model_len' },
  'ollama-v1': { source: "Ollama's /v1", label: '/v1' },
  unknown: { source: 'the server', label: 'server' },
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `Retry-After` in seconds (the form servers send), as milliseconds. */
function retryAfterMs(response: ResponseLike): number | undefined {
  const header = response.headers.get('retry-after');
  const value = header === null || header.trim() === '' ? Number.NaN : Number(header);
  return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
}

function emptyReply(doneReason: string): ChatReply {
  return {
    content: '',
    thinking: '',
    toolCalls: [],
    doneReason,
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

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
