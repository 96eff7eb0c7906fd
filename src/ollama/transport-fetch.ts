import { IdleWatch } from './idle-timeout.js';
import { bodyChunks, type FetchLike, type ResponseLike, textChunks, WireResponse } from './wire-response.js';

/** How the fetch handed to the npm client should behave for one call. */
export interface TransportOptions {
  /** The fetch that sends the request: `httpFetch`, or a test double. */
  baseFetch: FetchLike;
  /** The caller's signal: merged into every request so aborting works before the first byte too. */
  signal?: AbortSignal;
  /**
   * End a request that receives no byte for this long, before or after the headers, with an
   * `IdleTimeoutError` (config `request_timeout_s`). The one timeout policy of every request.
   */
  idleTimeoutMs?: number;
}

/**
 * The fetch ochat gives `new Ollama({fetch})`. The npm client only aborts a stream after its
 * headers arrived and logs to the console on odd bodies; this wrapper adds the caller's signal to
 * every request, and rewrites error bodies to `{"error": …}` JSON so the client never reaches its
 * `console.log` paths. Its responses are `WireResponse`s, never fetch's `Response`, so nothing on
 * this path loads undici. (Streamed chats do not go through the npm client: see `OllamaClient.chat`.)
 */
export function createTransportFetch(options: TransportOptions): FetchLike {
  return async (input, init) => {
    const idle = options.idleTimeoutMs ? new IdleWatch(options.idleTimeoutMs) : undefined;
    const signals = [init?.signal, options.signal, idle?.signal].filter(
      (s): s is AbortSignal => s instanceof AbortSignal,
    );
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    // A caller that gives up (or finishes) stops the watch too.
    signal?.addEventListener('abort', () => idle?.stop(), { once: true });
    let response: ResponseLike;
    try {
      response = await options.baseFetch(input, { ...init, signal });
    } catch (error) {
      idle?.stop();
      throw idle?.fired ? idle.signal.reason : error;
    }
    idle?.touch();
    if (!response.ok) {
      try {
        return await jsonErrorResponse(response);
      } finally {
        idle?.stop();
      }
    }
    if (!response.body) {
      idle?.stop();
      return response;
    }
    if (!idle) return response;
    return new WireResponse(idle.watch(bodyChunks(response.body)), response.status, response.statusText, {
      'content-type': response.headers.get('content-type') ?? undefined,
    });
  };
}

async function jsonErrorResponse(response: ResponseLike): Promise<ResponseLike> {
  const text = await response.text().catch(() => '');
  const error = serverErrorText(text) || `${response.status} ${response.statusText}`.trim();
  return new WireResponse(textChunks(JSON.stringify({ error })), response.status, response.statusText, {
    'content-type': 'application/json',
  });
}

/** The error text of a body: Ollama's `{"error": "…"}`, else the text itself (tags of an HTML page removed). */
function serverErrorText(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed?.error === 'string') return parsed.error;
    const nested = (parsed?.error as { message?: unknown } | undefined)?.message;
    if (typeof nested === 'string') return nested;
  } catch {
    // Not JSON: fall through to the raw text.
  }
  const trimmed = text.trim();
  return trimmed.startsWith('<')
    ? trimmed
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : trimmed;
}

/**
 * An HTTP error status before the first byte, in the shape of the npm client's `ResponseError`
 * (`name`, `error`, `status_code`), so that one mapping (map-error.ts) reads both.
 */
export class HttpStatusError extends Error {
  readonly error: string;

  constructor(
    message: string,
    readonly status_code: number,
  ) {
    super(message);
    this.name = 'ResponseError';
    this.error = message;
  }

  /** From a response of this transport, whose error body is always `{"error": …}`. */
  static async of(response: ResponseLike): Promise<HttpStatusError> {
    const body = (await response.json().catch(() => ({}))) as { error?: unknown };
    const message =
      typeof body?.error === 'string' ? body.error : `${response.status} ${response.statusText}`;
    return new HttpStatusError(message, response.status);
  }
}
