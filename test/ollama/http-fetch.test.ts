import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OllamaClient } from '../../src/ollama/client.js';
import { ServerUnreachableError, StreamError } from '../../src/ollama/errors.js';
import { httpFetch } from '../../src/ollama/http-fetch.js';
import type { ResponseLike } from '../../src/ollama/wire-response.js';
import { startSilentServer, unusedPort } from '../support/down-host.js';
import { ollamaFailure } from './ollama-failure.js';

/** A test server whose handler each test sets. */
let server: Server;
let url: string;
let handle: (res: ServerResponse, body: string, path: string) => void;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (piece: string) => {
      body += piece;
    });
    req.on('end', () => handle(res, body, req.url ?? ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function firstChunk(response: ResponseLike): Promise<string> {
  for await (const chunk of response.body as AsyncIterable<Uint8Array>)
    return new TextDecoder().decode(chunk);
  return '';
}

/** What a promise rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('httpFetch', () => {
  it('sends method, headers and body, and answers status, headers (any case) and text', async () => {
    let seen = '';
    handle = (res, body, path) => {
      seen = `${path} ${body}`;
      res.writeHead(201, 'Made', { 'Content-Type': 'application/json' }).end('{"ok":true}');
    };
    const response = await httpFetch(`${url}/api/x`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"é":1}',
    });
    expect(seen).toBe('/api/x {"é":1}');
    expect([response.ok, response.status, response.statusText]).toEqual([true, 201, 'Made']);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ ok: true });
  });

  it('hands over each chunk as it arrives, before the server has finished', async () => {
    let finish = () => {};
    handle = (res) => {
      res.writeHead(200);
      res.write('{"a":1}\n');
      finish = () => res.end('{"b":2}\n');
    };
    const response = await httpFetch(`${url}/stream`);
    expect(await firstChunk(response)).toBe('{"a":1}\n');
    finish();
  });

  it('rejects a refused connection the way fetch does: TypeError "fetch failed", the code on its cause', async () => {
    const error = await rejection(httpFetch(`http://127.0.0.1:${await unusedPort()}/`));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('reports a name that does not resolve, and TLS spoken to a plain-HTTP server, with their codes', async () => {
    const dns = (await rejection(httpFetch('http://nonexistent.invalid:11434/'))) as TypeError;
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain((dns.cause as { code?: string }).code);
    const tls = (await rejection(httpFetch(`${url.replace('http:', 'https:')}/`))) as TypeError;
    expect(tls.message).toBe('fetch failed');
    expect((tls.cause as { code?: string }).code).toMatch(/^(EPROTO|ERR_SSL_)/);
  });

  it("ends with the signal's reason when aborted before the headers, and ends the body when aborted after", async () => {
    handle = () => {}; // never answers
    const before = new AbortController();
    const pending = httpFetch(`${url}/slow`, { signal: before.signal });
    before.abort(new Error('stop now'));
    expect(await rejection(pending)).toEqual(new Error('stop now'));

    handle = (res) => {
      res.writeHead(200);
      res.write('{"a":1}\n');
    };
    const after = new AbortController();
    const response = await httpFetch(`${url}/stalls`, { signal: after.signal });
    const reading = response.text();
    after.abort();
    expect((await rejection(reading)) as Error).toHaveProperty('name', 'AbortError');
  });

  it('sends again on a new connection when a kept-alive one was closed by the server as the request went (no answer had begun)', async () => {
    // llama-server (cpp-httplib) ends an idle kept-alive connection after 5 s, as Node's pool drops
    // its idle sockets: a request written on a socket the server was closing got "socket hang up"
    // though the server was fine (seen in the real-server tests under load).
    const served = new WeakSet<object>();
    const closing = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (served.has(req.socket)) {
          req.socket.destroy();
          return;
        }
        served.add(req.socket);
        res.end(`answered ${req.url}`);
      });
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(closing.address() as AddressInfo).port}`;
    try {
      expect(await (await httpFetch(`${at}/one`, { method: 'POST', body: '{}' })).text()).toBe(
        'answered /one',
      );
      expect(await (await httpFetch(`${at}/two`, { method: 'POST', body: '{}' })).text()).toBe(
        'answered /two',
      );
    } finally {
      closing.closeAllConnections();
      await new Promise((resolve) => closing.close(resolve));
    }
  });

  it('fails a body whose connection closes midway with fetch\'s TypeError("terminated")', async () => {
    handle = (res) => {
      res.writeHead(200);
      res.write('{"a":1}\n', () => res.destroy());
    };
    const response = await httpFetch(`${url}/cut`);
    const error = (await rejection(response.text())) as TypeError;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('terminated');
  });
});

describe('OllamaClient over httpFetch (its default transport)', () => {
  it('maps a refused connection to unreachable, naming the host', async () => {
    const host = `http://127.0.0.1:${await unusedPort()}`;
    const error = await ollamaFailure(new OllamaClient({ host }).listModels());
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect(error.message).toContain(host);
    expect(error.message).toContain('refused');
  });

  it("keeps Ollama's JSON error text of an HTTP error", async () => {
    handle = (res) => {
      res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":"llama runner crashed"}');
    };
    const error = await ollamaFailure(new OllamaClient({ host: url }).showModel('m'));
    expect(error.kind).toBe('http');
    expect(error.message).toContain('llama runner crashed');
  });

  it('ends a request to a server that never answers after request_timeout_s, with a timeout error', async () => {
    const silent = await startSilentServer();
    try {
      const client = new OllamaClient({ host: silent.url, requestTimeoutMs: 50 });
      const error = await ollamaFailure(client.listModels());
      expect(error.kind).toBe('timeout');
    } finally {
      await silent.close();
    }
  });

  it('ends a stream that goes silent midway, keeping the partial reply', async () => {
    handle = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      res.write('{"model":"m","message":{"role":"assistant","content":"Hel"},"done":false}\n');
    };
    const client = new OllamaClient({ host: url, requestTimeoutMs: 50 });
    const error = await ollamaFailure(
      client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.kind).toBe('timeout');
    expect(error.partial?.content).toBe('Hel');
  });

  it('reports a connection closed mid-reply as a stream error, keeping the partial reply', async () => {
    handle = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      res.write('{"model":"m","message":{"role":"assistant","content":"Hel"},"done":false}\n', () =>
        setTimeout(() => res.destroy(), 20),
      );
    };
    const client = new OllamaClient({ host: url });
    const error = await ollamaFailure(
      client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error).toBeInstanceOf(StreamError);
    expect(error.partial?.content).toBe('Hel');
  });
});
