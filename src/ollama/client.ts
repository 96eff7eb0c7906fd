import { Ollama } from 'ollama';
import { abortable } from '../async/abortable.js';
import type { ChatBackend, ChatHandlers } from '../backend/chat-backend.js';
import type { ChatReply, ChatRequest, InstalledModel, ModelInfo } from '../backend/interfaces.js';
import type { LoadRequest, PullProgress, RunningModel } from '../backend/model-lifecycle.js';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import { parseHost } from '../platform/host.js';
import { sanitizeTerminalText } from '../text/sanitize.js';
import { oneLine } from '../text/shorten.js';
import {
  type PsEntryLike,
  toInstalledModel,
  toNpmChatRequest,
  toPullProgress,
  toRunningModel,
} from './api-conversions.js';
import {
  AbortedError,
  type ErrorContext,
  IncompleteStreamError,
  ModelNotFoundError,
  mapOllamaError,
  NotOllamaStreamError,
  type OllamaError,
  PullFailedError,
  ReplyTooLongError,
} from './errors.js';
import { httpFetch } from './http-fetch.js';
import { parseModelInfo, type ShowResponseLike } from './model-info.js';
import { ndjsonObjects } from './ndjson-objects.js';
import { type ChatChunk, ReplyAccumulator } from './reply-accumulator.js';
import { createTransportFetch, HttpStatusError } from './transport-fetch.js';
import { bodyChunks, type FetchLike } from './wire-response.js';

/** The head of a body for a message: one line of at most 60 characters, control characters made visible. */
function firstBytes(text: string): string {
  const flat = sanitizeTerminalText(text).replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

/** How to reach the server. */
export interface OllamaClientOptions {
  /** Any form `parseHost` accepts; normalised on construction. */
  host: string;
  /** Replaces `httpFetch`, ochat's fetch over node:http (tests). */
  fetch?: FetchLike;
  /** Every request ends when the server sends no byte for this long (config `request_timeout_s`). */
  requestTimeoutMs?: number;
}

/** ochat's only door to Ollama: every method throws `OllamaError`s (see errors.ts) and nothing else. */
export class OllamaClient implements ChatBackend {
  /** The normalised base URL, e.g. `http://127.0.0.1:11434`. */
  readonly host: string;
  private readonly baseFetch: FetchLike;
  private readonly requestTimeoutMs: number;

  constructor(options: OllamaClientOptions) {
    this.host = parseHost(options.host);
    this.baseFetch = options.fetch ?? httpFetch;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_CONFIG.request_timeout_s * 1000;
  }

  /** The models installed on the server (/api/tags). */
  listModels(signal?: AbortSignal): Promise<InstalledModel[]> {
    return this.call(signal, undefined, async (api) =>
      ((await api.list()).models ?? []).map(toInstalledModel),
    );
  }

  /** num_ctx, trained context and capabilities of one model (/api/show); 404 lists installed models. */
  showModel(model: string, signal?: AbortSignal): Promise<ModelInfo> {
    return this.call(signal, model, async (api) =>
      parseModelInfo(model, (await api.show({ model })) as unknown as ShowResponseLike),
    );
  }

  /** The models in the server's memory (/api/ps), with their GPU share and window. */
  runningModels(signal?: AbortSignal): Promise<RunningModel[]> {
    return this.call(signal, undefined, async (api) =>
      ((await api.ps()).models ?? []).map((entry) => toRunningModel(entry as unknown as PsEntryLike)),
    );
  }

  /** Loads a model before it is needed: a chat with no messages (`done_reason: "load"`). */
  loadModel(request: LoadRequest, signal?: AbortSignal): Promise<ChatReply> {
    return this.chat({ ...request, messages: [] }, { signal });
  }

  /** Frees a model now: no messages and `keep_alive: 0`, as `ollama stop` does. */
  async unloadModel(model: string, signal?: AbortSignal): Promise<void> {
    await this.chat({ model, messages: [], keep_alive: 0 }, { signal });
  }

  /**
   * POST /api/pull, streamed: each progress line goes to `onProgress` until `success`. An `error`
   * line (unknown name, disk full) rejects with a `PullFailedError`; aborting closes the request,
   * and Ollama keeps what arrived for the next pull.
   */
  async pullModel(
    model: string,
    onProgress: (progress: PullProgress) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const finished = new AbortController(); // ends the HTTP request on every way out of this call
    const transportSignal = signal ? AbortSignal.any([signal, finished.signal]) : finished.signal;
    const pull = async (): Promise<void> => {
      const response = await this.transport(transportSignal)(`${this.host}/api/pull`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ model, stream: true }),
      });
      if (!response.ok) throw await HttpStatusError.of(response);
      if (!response.body) throw new PullFailedError(model, 'the server sent no progress');
      for await (const line of ndjsonObjects(bodyChunks(response.body))) {
        transportSignal.throwIfAborted();
        if ('error' in line) throw new PullFailedError(model, oneLine(String(line.error), 300));
        const progress = toPullProgress(line);
        onProgress(progress);
        if (progress.status === 'success') return;
      }
      throw new PullFailedError(model, 'the download stopped before it finished');
    };
    try {
      await abortable(pull(), signal);
    } catch (err) {
      throw await this.failure(err, { model }, signal);
    } finally {
      finished.abort();
    }
  }

  /**
   * Streams one chat reply, passing each piece to `onDelta`, and resolves with the whole reply and
   * the server's metrics. Any failure rejects with an `OllamaError` carrying what streamed so far.
   */
  async chat(request: ChatRequest, handlers: ChatHandlers = {}): Promise<ChatReply> {
    const { signal, onDelta } = handlers;
    const reply = new ReplyAccumulator();
    const finished = new AbortController(); // ends the HTTP request on every way out of this call
    const transportSignal = signal ? AbortSignal.any([signal, finished.signal]) : finished.signal;
    let handlerFailure: { error: unknown } | undefined;

    const skipped = { lines: 0 };
    const stream = async (): Promise<ChatReply> => {
      for await (const chunk of this.chatChunks(request, transportSignal, skipped)) {
        transportSignal.throwIfAborted(); // no delta may reach the caller after it cancelled
        const delta = reply.add(chunk);
        if (delta && onDelta) {
          try {
            onDelta(delta);
          } catch (error) {
            handlerFailure = { error };
            throw error;
          }
        }
        if (reply.capped) throw new ReplyTooLongError(reply.maxChars, { partial: reply.partial() });
        if (chunk.done) return reply.finish(chunk, skipped.lines);
      }
      throw new IncompleteStreamError({ partial: reply.partial() });
    };

    try {
      return await abortable(stream(), signal);
    } catch (err) {
      if (handlerFailure) throw handlerFailure.error;
      throw await this.failure(err, { model: request.model, partial: reply.partial() }, signal);
    } finally {
      finished.abort();
    }
  }

  /**
   * POST /api/chat, streamed, each line parsed once. Not through the npm client: it parses every
   * line itself, after the parse that keeps malformed lines from reaching it (its console.warn
   * would print over the UI) — twice the JSON work for every token. What it adds is kept: an HTTP
   * error is its `ResponseError` shape, an `{"error"}` line a plain Error with that text.
   */
  private async *chatChunks(
    request: ChatRequest,
    signal: AbortSignal,
    skipped: { lines: number } = { lines: 0 },
  ): AsyncIterable<ChatChunk> {
    const response = await this.transport(signal)(`${this.host}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(toNpmChatRequest(request)),
    });
    if (!response.ok) throw await HttpStatusError.of(response);
    if (!response.body) return;
    let chunks = 0;
    let dropped: string | undefined;
    const onDropped = (line: string) => {
      dropped ??= line;
      skipped.lines++;
      // Before any chunk of Ollama's: the body is something else (HTML, text), said at once.
      if (chunks === 0)
        throw new NotOllamaStreamError(this.host, {
          contentType: response.headers.get('content-type'),
          firstBytes: firstBytes(line),
        });
    };
    for await (const line of ndjsonObjects(bodyChunks(response.body), onDropped)) {
      if ('error' in line) throw new Error(String(line.error));
      if (chunks === 0 && typeof line.done !== 'boolean' && !('message' in line))
        throw new NotOllamaStreamError(this.host, {
          contentType: response.headers.get('content-type'),
          firstBytes: firstBytes(JSON.stringify(line)),
        });
      chunks++;
      yield line as unknown as ChatChunk;
    }
    // Ended without `done` (else the caller stopped reading) after lines that were not Ollama's.
    if (dropped !== undefined)
      throw new NotOllamaStreamError(this.host, {
        contentType: response.headers.get('content-type'),
        firstBytes: firstBytes(dropped),
      });
  }

  private async call<T>(
    signal: AbortSignal | undefined,
    model: string | undefined,
    work: (api: Ollama) => Promise<T>,
  ): Promise<T> {
    try {
      return await abortable(work(this.api(signal)), signal);
    } catch (err) {
      throw await this.failure(err, { model }, signal);
    }
  }

  /** A fresh npm client per call, so its fetch carries this call's signal. */
  private api(signal: AbortSignal | undefined): Ollama {
    // The npm client reads only what `ResponseLike` has of a Response (see wire-response.ts).
    return new Ollama({ host: this.host, fetch: this.transport(signal) as unknown as typeof fetch });
  }

  /** The fetch of one call: its signal, the idle timeout, error bodies as `{"error"}` JSON. */
  private transport(signal: AbortSignal | undefined): FetchLike {
    return createTransportFetch({ baseFetch: this.baseFetch, signal, idleTimeoutMs: this.requestTimeoutMs });
  }

  private async failure(
    err: unknown,
    context: Omit<ErrorContext, 'host'>,
    signal?: AbortSignal,
  ): Promise<OllamaError> {
    if (signal?.aborted) return new AbortedError({ partial: context.partial, cause: err });
    const mapped = mapOllamaError(err, { host: this.host, ...context });
    if (!(mapped instanceof ModelNotFoundError)) return mapped;
    // One extra request so the message can name the models there are.
    const installed = await this.api(signal)
      .list()
      .then((list) => (list.models ?? []).map((model) => model.name))
      .catch(() => undefined);
    return mapOllamaError(err, { host: this.host, ...context, installed });
  }
}
