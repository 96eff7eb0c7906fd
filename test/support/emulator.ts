/**
 * An emulator of the Ollama server (~0.33) on 127.0.0.1 that speaks its real wire protocol, for
 * tests and benchmarks: NDJSON streaming with done metrics, tool calls, /api/show, /api/ps,
 * /api/tags, /api/version, HTTP errors, error lines mid-stream, slow first bytes, hung streams and
 * Ollama's silent truncation over num_ctx (or, with `truncate: false`, its refusal), /api/pull
 * with progress, cold loads, keep_alive and GPU memory, with a deterministic token count, and the
 * runner's prefix cache (`prompt_eval_cached_count`, emulator-prompt-cache.ts). It records every
 * request so tests can assert what the client sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleChat } from './emulator-chat.js';
import { readBody, sendError, sendJson, sendText } from './emulator-http.js';
import { DEFAULT_MODELS, psEntry, tagsEntry } from './emulator-models.js';
import { handlePull } from './emulator-pull.js';
import { showResponse } from './emulator-show.js';
import { EmulatorState } from './emulator-state.js';
import type { Emulator, EmulatorOptions } from './emulator-types.js';

export { countPromptTokens, countTokens, countToolTokens } from './emulator-tokens.js';
export type {
  ChatMessageLike,
  ChatRequestRecord,
  Emulator,
  EmulatorModel,
  EmulatorOptions,
  EmulatorRegistryModel,
  ReplyFault,
  Responder,
  ScriptedReply,
} from './emulator-types.js';

/** The emulator's default generation speed in tokens per second. */
export const DEFAULT_TOKENS_PER_SECOND = 1000;

/** The server default num_ctx when neither the request nor the Modelfile sets one. */
export const DEFAULT_NUM_CTX = 4096;

/** The version /api/version reports. */
export const EMULATED_VERSION = '0.33.0';

/** Starts an emulator listening on 127.0.0.1 (a random free port unless `port` is given). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const state = new EmulatorState(
    options.models ?? DEFAULT_MODELS,
    options.tokensPerSecond ?? DEFAULT_TOKENS_PER_SECOND,
    options.defaultNumCtx ?? DEFAULT_NUM_CTX,
    options.version ?? EMULATED_VERSION,
    {
      registry: options.registry,
      pullBytesPerSecond: options.pullBytesPerSecond,
      gpuMemory: options.gpuMemory,
      loadDelayMs: options.loadDelayMs,
      ignoresTruncate: options.ignoresTruncate,
    },
  );
  const server = createServer((req, res) => {
    route(state, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `emulator: ${String(error)}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: state.requests,
    chats: state.chats,
    loadRequests: state.loadRequests,
    get loads() {
      return state.loads;
    },
    get pullsAborted() {
      return state.pullsAborted;
    },
    enqueue: (...replies) => {
      state.queue.push(...replies);
    },
    respondWith: (responder) => {
      state.responder = responder;
    },
    setModels: (models) => state.setModels(models),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hung streams and idle keep-alive sockets would otherwise hold close() forever.
        server.closeAllConnections();
      }),
  };
}

/** Dispatches one request to the handler of its route, like Ollama's router. */
async function route(state: EmulatorState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const path = new URL(req.url ?? '/', 'http://emulator').pathname;
  const body = await readBody(req);
  state.requests.push({ method, path, body });
  const key = `${method} ${path}`;

  switch (key) {
    case 'GET /':
    case 'HEAD /':
      return sendText(res, 200, 'Ollama is running', method);
    case 'GET /api/version':
    case 'HEAD /api/version':
      return sendJson(res, 200, { version: state.version });
    case 'GET /api/tags':
      return sendJson(res, 200, { models: state.listModels().map(tagsEntry) });
    case 'GET /api/ps':
      return sendJson(res, 200, { models: runningModels(state) });
    case 'POST /api/show':
      return show(state, body, res);
    case 'POST /api/pull':
      return handlePull(state, body, res);
    case 'POST /api/chat':
      if (body !== undefined && (typeof body !== 'object' || body === null)) {
        return sendError(res, 400, 'invalid character in request body');
      }
      if (body === undefined) return sendError(res, 400, 'missing request body');
      return handleChat(state, body, res);
    default:
      return sendText(res, 404, '404 page not found', method);
  }
}

/** /api/ps: loaded models, the longest time to expiry first. */
function runningModels(state: EmulatorState) {
  return state
    .listModels()
    .flatMap((model) => {
      const loaded = state.liveEntry(model.name);
      return loaded ? [psEntry(model, loaded.numCtx, loaded.expiresAt, state.gpuMemory)] : [];
    })
    .sort((a, b) => b.expires_at.localeCompare(a.expires_at));
}

/** /api/show: accepts `model` or the legacy `name`; unknown models are a 404. */
function show(state: EmulatorState, body: unknown, res: ServerResponse): void {
  const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const asked = request.model ?? request.name;
  const model = state.findModel(asked);
  if (typeof asked !== 'string' || asked.trim() === '') sendError(res, 400, 'model is required');
  else if (!model) sendError(res, 404, `model '${asked}' not found`);
  else sendJson(res, 200, showResponse(model));
}
