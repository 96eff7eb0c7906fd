/**
 * A fake `fetch` for client tests: routes by path, records what was sent, and behaves like Node's
 * fetch on abort (rejects with an AbortError before headers, errors the body stream after).
 */

/** One request the fake received. */
export interface RecordedRequest {
  path: string;
  method: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary client-sent JSON.
  body: any;
}

/** Answers one request; may wait, and gets the request's signal. */
export type Route = (signal: AbortSignal | undefined) => Response | Promise<Response>;

/** A fake fetch and the requests it has seen. */
export interface FakeFetch {
  fetch: typeof fetch;
  requests: RecordedRequest[];
}

/** A fetch answering `routes[path]`; unknown paths get a 404 like Ollama's router. */
export function fakeFetch(routes: Record<string, Route>): FakeFetch {
  const requests: RecordedRequest[] = [];
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const text = typeof init?.body === 'string' ? init.body : undefined;
    requests.push({
      path: url.pathname,
      method: init?.method ?? 'GET',
      body: text ? JSON.parse(text) : undefined,
    });
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const route = routes[url.pathname];
    if (!route) return new Response('404 page not found', { status: 404 });
    return route(signal);
  };
  return { fetch: fetchImpl as typeof fetch, requests };
}

/** A JSON answer with the given status. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Ollama's error answer before the first byte: real status, `{"error": …}`. */
export function errorResponse(status: number, error: string): Response {
  return jsonResponse({ error }, status);
}

/** Lines (objects are JSON-encoded) as an NDJSON stream, one body chunk per line. */
export function ndjsonResponse(lines: (object | string)[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const line of lines)
        controller.enqueue(encoder.encode(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
}

/**
 * NDJSON lines, then silence with the stream left open, as a model that stalls mid-reply; aborting
 * `signal` errors the stream the way Node's fetch does.
 */
export function hangingNdjsonResponse(lines: object[], signal: AbortSignal | undefined): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const line of lines) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      signal?.addEventListener(
        'abort',
        () => controller.error(new DOMException('This operation was aborted', 'AbortError')),
        {
          once: true,
        },
      );
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
}

/** Never answers until `signal` aborts, then rejects like Node's fetch: a model still loading. */
export function neverAnswer(signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((_, reject) => {
    signal?.addEventListener(
      'abort',
      () => reject(new DOMException('This operation was aborted', 'AbortError')),
      {
        once: true,
      },
    );
  });
}

/** A streamed chat chunk carrying text. */
export function chunk(message: { content?: string; thinking?: string; tool_calls?: unknown[] }): object {
  return {
    model: 'm',
    created_at: '2026-01-01T00:00:00Z',
    message: { role: 'assistant', content: '', ...message },
    done: false,
  };
}

/** The final chunk with its metrics. */
export function doneChunk(overrides: Record<string, unknown> = {}): object {
  return {
    model: 'm',
    created_at: '2026-01-01T00:00:01Z',
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: 'stop',
    total_duration: 1874512300,
    load_duration: 41295167,
    prompt_eval_count: 26,
    prompt_eval_duration: 342546000,
    eval_count: 38,
    eval_duration: 1401599000,
    ...overrides,
  };
}
