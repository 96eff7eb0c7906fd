import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatDelta, ChatRequest } from '../../src/backend/interfaces.js';
import { OllamaClient } from '../../src/ollama/client.js';
import {
  AbortedError,
  IncompleteStreamError,
  ModelNotFoundError,
  OllamaHttpError,
  ServerUnreachableError,
  StreamError,
  UnsupportedCapabilityError,
} from '../../src/ollama/errors.js';
import { deliberatePause } from '../support/wait-until.js';
import {
  chunk,
  doneChunk,
  errorResponse,
  fakeFetch,
  hangingNdjsonResponse,
  jsonResponse,
  ndjsonResponse,
  neverAnswer,
} from './fake-fetch.js';
import { ollamaFailure } from './ollama-failure.js';

const request: ChatRequest = {
  model: 'qwen3',
  messages: [{ role: 'user', content: 'Hi' }],
  options: { num_ctx: 8192 },
  think: true,
};

const tags = () => jsonResponse({ models: [{ name: 'llama3.2:latest' }, { name: 'qwen3:8b' }] });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('OllamaClient.chat', () => {
  it('streams thinking and content to onDelta, and returns the whole reply with metrics', async () => {
    const fake = fakeFetch({
      '/api/chat': () =>
        ndjsonResponse([
          chunk({ thinking: 'User greets.' }),
          chunk({ content: 'Hel' }),
          chunk({ content: 'lo' }),
          doneChunk(),
        ]),
    });
    const client = new OllamaClient({ host: 'localhost', fetch: fake.fetch });
    const deltas: ChatDelta[] = [];
    const reply = await client.chat(request, { onDelta: (delta) => deltas.push(delta) });

    expect(deltas).toEqual([{ thinking: 'User greets.' }, { content: 'Hel' }, { content: 'lo' }]);
    expect(reply).toEqual({
      content: 'Hello',
      thinking: 'User greets.',
      toolCalls: [],
      doneReason: 'stop',
      metrics: {
        promptEvalCount: 26,
        evalCount: 38,
        totalDurationNs: 1874512300,
        loadDurationNs: 41295167,
        promptEvalDurationNs: 342546000,
        evalDurationNs: 1401599000,
      },
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].method).toBe('POST');
    expect(fake.requests[0].body).toEqual({ ...request, stream: true });
  });

  it('sends to the normalised host', async () => {
    const seen: string[] = [];
    const fetchImpl = (async (input: string | URL | Request) => {
      seen.push(String(input));
      return ndjsonResponse([doneChunk()]);
    }) as typeof fetch;
    const client = new OllamaClient({ host: 'https://example.com/ollama/', fetch: fetchImpl });
    expect(client.host).toBe('https://example.com:443/ollama');
    await client.chat(request);
    expect(seen).toEqual(['https://example.com:443/ollama/api/chat']);
  });

  it('collects whole tool calls and passes them on as they arrive', async () => {
    const call = { id: 'call_1', function: { index: 0, name: 'get_weather', arguments: { city: 'Tokyo' } } };
    const fake = fakeFetch({
      '/api/chat': () => ndjsonResponse([chunk({ tool_calls: [call] }), doneChunk()]),
    });
    const deltas: ChatDelta[] = [];
    const reply = await new OllamaClient({ host: 'h', fetch: fake.fetch }).chat(
      {
        ...request,
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'd',
              parameters: { type: 'object', properties: {} },
            },
          },
        ],
      },
      { onDelta: (delta) => deltas.push(delta) },
    );
    expect(reply.toolCalls).toEqual([call]);
    expect(deltas).toEqual([{ toolCalls: [call] }]);
    expect(fake.requests[0].body.tools[0].function.name).toBe('get_weather');
  });

  it('keeps what streamed when an error line arrives mid-stream', async () => {
    const fake = fakeFetch({
      '/api/chat': () =>
        ndjsonResponse([
          chunk({ thinking: 'hmm' }),
          chunk({ content: 'Partial ans' }),
          { error: 'an error was encountered while running the model' },
        ]),
    });
    const error = await ollamaFailure(new OllamaClient({ host: 'h', fetch: fake.fetch }).chat(request));
    expect(error).toBeInstanceOf(StreamError);
    expect(error.message).toContain('an error was encountered while running the model');
    expect(error.partial).toEqual({ content: 'Partial ans', thinking: 'hmm' });
  });

  it('fails with IncompleteStreamError, keeping the partial text, when the stream ends without done', async () => {
    const fake = fakeFetch({ '/api/chat': () => ndjsonResponse([chunk({ content: 'cut' })]) });
    const error = await ollamaFailure(new OllamaClient({ host: 'h', fetch: fake.fetch }).chat(request));
    expect(error).toBeInstanceOf(IncompleteStreamError);
    expect(error.partial).toEqual({ content: 'cut', thinking: '' });
  });

  it('skips a malformed line without printing anything', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const fake = fakeFetch({
      '/api/chat': () =>
        ndjsonResponse([chunk({ content: 'a' }), '{"broken', '7', chunk({ content: 'b' }), doneChunk()]),
    });
    const reply = await new OllamaClient({ host: 'h', fetch: fake.fetch }).chat(request);
    expect(reply.content).toBe('ab');
    expect(warn).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it('turns a 404 into ModelNotFoundError listing the installed models', async () => {
    const fake = fakeFetch({
      '/api/chat': () => errorResponse(404, "model 'qwen3' not found"),
      '/api/tags': tags,
    });
    const error = await ollamaFailure(new OllamaClient({ host: 'h', fetch: fake.fetch }).chat(request));
    expect(error).toBeInstanceOf(ModelNotFoundError);
    expect(error.message).toBe(
      "Model 'qwen3' is not installed. Did you mean 'qwen3:8b'? Installed: llama3.2:latest, qwen3:8b. Download it with `OLLAMA_HOST=http://h:11434 ollama pull qwen3`.",
    );
    expect(fake.requests.map((r) => r.path)).toEqual(['/api/chat', '/api/tags']);
  });

  it('still names the model when the installed list cannot be fetched either', async () => {
    const fake = fakeFetch({
      '/api/chat': () => errorResponse(404, "model 'qwen3' not found"),
      '/api/tags': () => errorResponse(500, 'boom'),
    });
    const error = await ollamaFailure(
      new OllamaClient({ host: '127.0.0.1', fetch: fake.fetch }).chat(request),
    );
    expect(error).toBeInstanceOf(ModelNotFoundError);
    expect(error.message).toBe("Model 'qwen3' is not installed. Download it with `ollama pull qwen3`.");
  });

  it('turns 400 "does not support tools" into UnsupportedCapabilityError', async () => {
    const fake = fakeFetch({
      '/api/chat': () => errorResponse(400, 'registry.ollama.ai/library/qwen3:latest does not support tools'),
    });
    const error = await ollamaFailure(new OllamaClient({ host: 'h', fetch: fake.fetch }).chat(request));
    expect(error).toBeInstanceOf(UnsupportedCapabilityError);
    expect((error as UnsupportedCapabilityError).capability).toBe('tools');
    expect(error.message).toContain("Model 'qwen3' does not support tools.");
  });

  it('maps a non-JSON error body to an HTTP error without logging', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const fake = fakeFetch({ '/api/chat': () => new Response('upstream down', { status: 502 }) });
    const error = await ollamaFailure(new OllamaClient({ host: 'h', fetch: fake.fetch }).chat(request));
    expect(error).toBeInstanceOf(OllamaHttpError);
    expect(error.message).toContain('HTTP 502: upstream down');
    expect(log).not.toHaveBeenCalled();
  });

  it('reports connection refused as ServerUnreachableError naming the host', async () => {
    const refusing = (async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    }) as typeof fetch;
    const error = await ollamaFailure(new OllamaClient({ host: ':11500', fetch: refusing }).chat(request));
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect(error.message).toContain('Cannot reach Ollama at http://127.0.0.1:11500 (connection refused)');
    expect(error.partial).toEqual({ content: '', thinking: '' });
  });

  it('aborts while waiting for the first byte (a model still loading)', async () => {
    const fake = fakeFetch({ '/api/chat': (signal) => neverAnswer(signal) });
    const controller = new AbortController();
    const pending = new OllamaClient({ host: 'h', fetch: fake.fetch }).chat(request, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 5);
    const error = await ollamaFailure(pending);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.message).toBe('Request cancelled.');
  });

  it('aborts promptly even if the fetch ignores the signal', async () => {
    const deaf = (() => new Promise<Response>(() => {})) as typeof fetch;
    const controller = new AbortController();
    const pending = new OllamaClient({ host: 'h', fetch: deaf }).chat(request, { signal: controller.signal });
    controller.abort('user pressed Ctrl+C'); // a non-Error reason, as callers may pass
    expect(await ollamaFailure(pending)).toBeInstanceOf(AbortedError);
  });

  it('aborts mid-stream, keeping the partial text, and delivers nothing afterwards', async () => {
    const fake = fakeFetch({
      '/api/chat': (signal) =>
        hangingNdjsonResponse(
          [chunk({ thinking: 't' }), chunk({ content: 'Once upon' }), chunk({ content: ' a time' })],
          signal,
        ),
    });
    const controller = new AbortController();
    const deltas: ChatDelta[] = [];
    const pending = new OllamaClient({ host: 'h', fetch: fake.fetch }).chat(request, {
      signal: controller.signal,
      onDelta: (delta) => {
        deltas.push(delta);
        if (delta.content) controller.abort();
      },
    });
    const error = await ollamaFailure(pending);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.partial).toEqual({ content: 'Once upon', thinking: 't' });
    expect(deltas).toHaveLength(2);
  });

  it('delivers no delta after the caller aborted, even from a stream that ignores the signal', async () => {
    const fake = fakeFetch({
      '/api/chat': () =>
        ndjsonResponse([
          chunk({ content: 'a' }),
          chunk({ content: 'b' }),
          chunk({ content: 'c' }),
          doneChunk(),
        ]),
    });
    const controller = new AbortController();
    const deltas: ChatDelta[] = [];
    const pending = new OllamaClient({ host: 'h', fetch: fake.fetch }).chat(request, {
      signal: controller.signal,
      onDelta: (delta) => {
        deltas.push(delta);
        controller.abort();
      },
    });
    const error = await ollamaFailure(pending);
    await deliberatePause(20, 'room for a runaway loop to show itself');
    expect(error.partial).toEqual({ content: 'a', thinking: '' });
    expect(deltas).toEqual([{ content: 'a' }]);
  });

  it('ends a request the server never answers after requestTimeoutMs, with a timeout error', async () => {
    const fake = fakeFetch({ '/api/chat': (signal) => neverAnswer(signal) });
    const client = new OllamaClient({ host: 'h', fetch: fake.fetch, requestTimeoutMs: 20 });
    const error = await ollamaFailure(client.chat(request));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('sent nothing for 0.02 s');
  });

  it('ends a stream that goes silent, keeping the partial reply; /api/show times out too', async () => {
    const fake = fakeFetch({
      '/api/chat': (signal) => hangingNdjsonResponse([chunk({ content: 'Hel' })], signal),
      '/api/show': (signal) => neverAnswer(signal),
    });
    const client = new OllamaClient({ host: 'h', fetch: fake.fetch, requestTimeoutMs: 30 });
    const error = await ollamaFailure(client.chat(request));
    expect(error.kind).toBe('timeout');
    expect(error.partial).toEqual({ content: 'Hel', thinking: '' });
    expect((await ollamaFailure(client.showModel('m'))).kind).toBe('timeout');
  });

  it('rethrows an exception from onDelta as is, and ends the request', async () => {
    let requestSignal: AbortSignal | undefined;
    const fake = fakeFetch({
      '/api/chat': (signal) => {
        requestSignal = signal;
        return hangingNdjsonResponse([chunk({ content: 'x' })], signal);
      },
    });
    const bug = new RangeError('UI bug');
    const outcome = await new OllamaClient({ host: 'h', fetch: fake.fetch })
      .chat(request, {
        onDelta: () => {
          throw bug;
        },
      })
      .catch((caught: unknown) => caught);
    expect(outcome).toBe(bug);
    expect(requestSignal?.aborted).toBe(true);
  });

  it("does not modify the caller's messages", async () => {
    const fake = fakeFetch({ '/api/chat': () => ndjsonResponse([doneChunk()]) });
    const messages = [{ role: 'user' as const, content: 'look', images: ['aGVsbG8='] }];
    const frozen = structuredClone(messages);
    await new OllamaClient({ host: 'h', fetch: fake.fetch }).chat({ model: 'm', messages });
    expect(messages).toEqual(frozen);
    expect(fake.requests[0].body.messages).toEqual(frozen);
  });
});

describe('OllamaClient metadata calls', () => {
  it('lists installed models', async () => {
    const fake = fakeFetch({
      '/api/tags': () =>
        jsonResponse({
          models: [
            {
              name: 'qwen3:latest',
              model: 'qwen3:latest',
              size: 5200000000,
              modified_at: '2026-08-01T10:00:00Z',
              details: { parameter_size: '8.2B', quantization_level: 'Q4_K_M' },
            },
            { name: 'tiny:1b' },
          ],
        }),
    });
    expect(await new OllamaClient({ host: 'h', fetch: fake.fetch }).listModels()).toEqual([
      {
        name: 'qwen3:latest',
        size: 5200000000,
        parameterSize: '8.2B',
        quantization: 'Q4_K_M',
        modifiedAt: '2026-08-01T10:00:00Z',
      },
      { name: 'tiny:1b' },
    ]);
  });

  it('shows a model', async () => {
    const fake = fakeFetch({
      '/api/show': () =>
        jsonResponse({
          parameters: 'num_ctx 8192',
          model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 },
          capabilities: ['completion', 'tools'],
        }),
    });
    const info = await new OllamaClient({ host: 'h', fetch: fake.fetch }).showModel('qwen3');
    expect(info).toEqual({
      name: 'qwen3',
      numCtxParam: 8192,
      trainedContext: 40960,
      capabilities: ['completion', 'tools'],
      architecture: 'qwen3',
      parameters: [{ name: 'num_ctx', value: '8192' }],
    });
    expect(fake.requests[0].body).toEqual({ model: 'qwen3' });
  });

  it('turns a 404 from /api/show into ModelNotFoundError listing installed models', async () => {
    const fake = fakeFetch({
      '/api/show': () => errorResponse(404, "model 'nope' not found"),
      '/api/tags': tags,
    });
    const error = await ollamaFailure(new OllamaClient({ host: 'h', fetch: fake.fetch }).showModel('nope'));
    expect(error).toBeInstanceOf(ModelNotFoundError);
    expect((error as ModelNotFoundError).installed).toEqual(['llama3.2:latest', 'qwen3:8b']);
  });

  it('maps failures of metadata calls too', async () => {
    const refusing = (async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } });
    }) as typeof fetch;
    const error = await ollamaFailure(new OllamaClient({ host: 'gpu-box', fetch: refusing }).listModels());
    expect(error.message).toContain(
      "Cannot reach Ollama at http://gpu-box:11434 (no host named 'gpu-box' was found)",
    );
  });

  it('cancels a metadata call that hangs', async () => {
    const fake = fakeFetch({ '/api/show': (signal) => neverAnswer(signal) });
    const controller = new AbortController();
    const pending = new OllamaClient({ host: 'h', fetch: fake.fetch }).showModel('m', controller.signal);
    controller.abort();
    expect(await ollamaFailure(pending)).toBeInstanceOf(AbortedError);
  });

  it('explains a server that is not Ollama', async () => {
    const fake = fakeFetch({ '/api/tags': () => new Response('<html>hello</html>', { status: 200 }) });
    const error = await ollamaFailure(new OllamaClient({ host: 'h', fetch: fake.fetch }).listModels());
    expect(error.message).toContain('not valid JSON');
  });
});
