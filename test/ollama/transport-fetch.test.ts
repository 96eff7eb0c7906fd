import { describe, expect, it } from 'vitest';
import { createTransportFetch } from '../../src/ollama/transport-fetch.js';

function baseReturning(response: Response, seen: { signal?: AbortSignal | null }[] = []): typeof fetch {
  return (async (_input: unknown, init?: RequestInit) => {
    seen.push({ signal: init?.signal });
    return response;
  }) as typeof fetch;
}

describe('createTransportFetch', () => {
  it("adds the caller's signal to requests the npm client sends without one", async () => {
    const seen: { signal?: AbortSignal | null }[] = [];
    const caller = new AbortController();
    const transport = createTransportFetch({
      baseFetch: baseReturning(new Response('{}'), seen),
      signal: caller.signal,
    });
    await transport('http://h:1/api/tags', { method: 'GET' });
    expect(seen[0].signal?.aborted).toBe(false);
    caller.abort();
    expect(seen[0].signal?.aborted).toBe(true);
  });

  it("merges the npm client's own signal with the caller's: either one aborts", async () => {
    const seen: { signal?: AbortSignal | null }[] = [];
    const caller = new AbortController();
    const own = new AbortController();
    const transport = createTransportFetch({
      baseFetch: baseReturning(new Response('{}'), seen),
      signal: caller.signal,
    });
    await transport('http://h:1/api/chat', { method: 'POST', signal: own.signal });
    own.abort();
    expect(seen[0].signal?.aborted).toBe(true);
  });

  it('rewrites a plain-text error body to {"error": …} JSON, keeping the status', async () => {
    const transport = createTransportFetch({
      baseFetch: baseReturning(new Response('404 page not found', { status: 404 })),
    });
    const response = await transport('http://h:1/x');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ error: '404 page not found' });
  });

  it("keeps Ollama's JSON error text and strips the tags of an HTML error page", async () => {
    const json = createTransportFetch({
      baseFetch: baseReturning(Response.json({ error: "model 'x' not found" }, { status: 404 })),
    });
    expect(await (await json('http://h:1/x')).json()).toEqual({ error: "model 'x' not found" });
    const html = new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502 });
    const proxy = createTransportFetch({ baseFetch: baseReturning(html) });
    expect(await (await proxy('http://h:1/x')).json()).toEqual({ error: '502 Bad Gateway' });
  });

  it('uses the status line when the error body is empty', async () => {
    const transport = createTransportFetch({
      baseFetch: baseReturning(new Response('', { status: 503, statusText: 'Service Unavailable' })),
    });
    expect(await (await transport('http://h:1/x')).json()).toEqual({ error: '503 Service Unavailable' });
  });

  it('passes a body through as it came, with the idle watch or without', async () => {
    const body = () => new Response('{"a":1}\ngarbage\n{"b":2}\n');
    const watched = createTransportFetch({ baseFetch: baseReturning(body()), idleTimeoutMs: 1000 });
    expect(await (await watched('http://h:1/api/chat')).text()).toBe('{"a":1}\ngarbage\n{"b":2}\n');
    const raw = createTransportFetch({ baseFetch: baseReturning(body()) });
    expect(await (await raw('http://h:1/api/tags')).text()).toContain('garbage');
  });
});
