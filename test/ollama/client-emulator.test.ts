import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatDelta, ChatRequest } from '../../src/backend/interfaces.js';
import { OllamaClient } from '../../src/ollama/client.js';
import {
  AbortedError,
  ModelNotFoundError,
  ServerUnreachableError,
  StreamError,
  UnsupportedCapabilityError,
} from '../../src/ollama/errors.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { ollamaFailure } from './ollama-failure.js';

let emulator: Emulator;
let client: OllamaClient;

beforeAll(async () => {
  emulator = await startEmulator({
    models: [
      {
        name: 'qwen3:latest',
        family: 'qwen3',
        trainedContext: 40960,
        numCtxParam: 8192,
        capabilities: ['completion', 'tools', 'thinking'],
      },
      { name: 'plain:latest' },
    ],
    tokensPerSecond: Number.POSITIVE_INFINITY,
  });
  client = new OllamaClient({ host: emulator.url });
});

afterAll(async () => {
  await emulator.close();
});

const request = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'qwen3',
  messages: [{ role: 'user', content: 'Hello there' }],
  options: { num_ctx: 8192 },
  ...overrides,
});

describe('OllamaClient against the emulator', () => {
  it('reads model metadata', async () => {
    expect((await client.listModels()).map((m) => m.name)).toEqual(['qwen3:latest', 'plain:latest']);
    const info = await client.showModel('qwen3');
    expect(info).toMatchObject({
      numCtxParam: 8192,
      trainedContext: 40960,
      capabilities: ['completion', 'tools', 'thinking'],
    });
  });

  it('streams a thinking reply and reports the metrics and the loaded window', async () => {
    emulator.enqueue({ thinking: 'The user greets me.', content: 'Hello! How can I help?' });
    const deltas: ChatDelta[] = [];
    const reply = await client.chat(request({ think: true }), { onDelta: (delta) => deltas.push(delta) });
    expect(reply.content).toBe('Hello! How can I help?');
    expect(reply.thinking).toBe('The user greets me.');
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(reply.content);
    expect(reply.doneReason).toBe('stop');
    expect(reply.metrics.promptEvalCount).toBe(emulator.chats.at(-1)?.promptEvalCount);
    expect(reply.metrics.evalCount).toBeGreaterThan(0);
    expect(emulator.chats.at(-1)?.body).toMatchObject({
      stream: true,
      think: true,
      options: { num_ctx: 8192 },
    });
  });

  it('returns tool calls whole', async () => {
    emulator.enqueue({ toolCalls: [{ name: 'get_time', arguments: { zone: 'UTC' } }] });
    const reply = await client.chat(request());
    expect(reply.toolCalls.map((call) => call.function)).toMatchObject([
      { name: 'get_time', arguments: { zone: 'UTC' } },
    ]);
  });

  it('skips a malformed line silently', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    emulator.enqueue({ content: 'abcdefghijkl', fault: { kind: 'malformed-line', afterChunks: 1 } });
    expect((await client.chat(request())).content).toBe('abcdefghijkl');
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('keeps the partial reply when an error line arrives mid-stream', async () => {
    emulator.enqueue({
      content: 'abcdefghijkl',
      fault: { kind: 'error-line', afterChunks: 2, error: 'model crashed' },
    });
    const error = await ollamaFailure(client.chat(request()));
    expect(error).toBeInstanceOf(StreamError);
    expect(error.partial?.content).toBe('abcdefgh');
  });

  it('names the installed models for an unknown model', async () => {
    const error = await ollamaFailure(client.chat(request({ model: 'missing' })));
    expect(error).toBeInstanceOf(ModelNotFoundError);
    expect(error.message).toContain('Installed: qwen3:latest, plain:latest.');
  });

  it('reports a model without tool support', async () => {
    const tools: ChatRequest['tools'] = [
      {
        type: 'function',
        function: { name: 'get_time', description: 'Time', parameters: { type: 'object', properties: {} } },
      },
    ];
    const error = await ollamaFailure(client.chat(request({ model: 'plain', tools })));
    expect(error).toBeInstanceOf(UnsupportedCapabilityError);
  });

  it('aborts during a slow first byte and during a hung stream, keeping the partial text', async () => {
    emulator.enqueue({ content: 'never', firstByteDelayMs: 60_000 });
    const early = new AbortController();
    const loading = client.chat(request(), { signal: early.signal });
    setTimeout(() => early.abort(), 20);
    expect(await ollamaFailure(loading)).toBeInstanceOf(AbortedError);

    emulator.enqueue({ content: 'abcdefgh', fault: { kind: 'hang', afterChunks: 1 } });
    const late = new AbortController();
    const hung = client.chat(request(), {
      signal: late.signal,
      onDelta: () => late.abort(),
    });
    const error = await ollamaFailure(hung);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.partial?.content).toBe('abcd');
  });

  it('reports a server that is down', async () => {
    const down = await startEmulator();
    const url = down.url;
    await down.close();
    const error = await ollamaFailure(new OllamaClient({ host: url }).listModels());
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect(error.message).toContain(`Cannot reach Ollama at ${url} (connection refused)`);
  });
});
