import { afterEach, describe, expect, it } from 'vitest';
import type { ChatDelta } from '../../src/backend/interfaces.js';
import { OpenAiClient } from '../../src/openai/client.js';
import { type OpenAiEmulator, type OpenAiEngine, startOpenAiEmulator } from '../support/openai-emulator.js';

let emulator: OpenAiEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(engine: OpenAiEngine, extra: Partial<Parameters<typeof startOpenAiEmulator>[0]> = {}) {
  emulator = await startOpenAiEmulator({ engine, models: [{ id: 'm1', window: 2048 }], ...extra });
  return { emulator, client: new OpenAiClient({ host: emulator.url, retryDelaysMs: [10, 10] }) };
}

const WINDOW_SOURCES: [OpenAiEngine, string, string, string][] = [
  ['vllm', 'vLLM', 'vLLM /v1/models max_model_len', 'max_model_len'],
  ['sglang', 'SGLang', 'SGLang /v1/models max_model_len', 'max_model_len'],
  ['llama-server', 'llama-server', 'llama-server /props n_ctx', '/props'],
  ['lm-studio', 'LM Studio', 'LM Studio loaded_context_length', 'loaded_context_length'],
  ['litellm', 'LiteLLM', 'LiteLLM /model/info max_input_tokens', '/model/info'],
];

describe('OpenAiClient against each engine', () => {
  it.each(WINDOW_SOURCES)(
    '%s: names the engine and reads its window where it publishes it',
    async (engine, name, source, label) => {
      const { client } = await start(engine);
      expect(await client.listModels()).toEqual([{ name: 'm1' }]);
      const info = await client.showModel('m1');
      expect(info.serverWindow).toEqual({ tokens: 2048, source, label });
      expect(client.server).toEqual({ api: 'openai', name });
    },
  );

  it('streams text, and the counts come from usage (asked for with stream_options.include_usage)', async () => {
    const { emulator, client } = await start('vllm');
    emulator.enqueue({ content: 'Hello there, friend.' });
    const deltas: ChatDelta[] = [];
    const reply = await client.chat(
      {
        model: 'm1',
        messages: [{ role: 'user', content: 'hi' }],
        options: { num_ctx: 2048, num_predict: 100, temperature: 0.2 },
      },
      { onDelta: (d) => deltas.push(d) },
    );
    expect(reply.content).toBe('Hello there, friend.');
    expect(deltas.map((d) => d.content).join('')).toBe('Hello there, friend.');
    expect(reply.metrics.promptEvalCount).toBe(emulator.chats[0].promptTokens);
    expect(reply.metrics.evalCount).toBe(5);
    expect(reply.metrics.counted).toBeUndefined();
    const body = emulator.chats[0].body;
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.max_tokens).toBe(100);
    expect(body.temperature).toBe(0.2);
    expect(body).not.toHaveProperty('options');
    expect(body).not.toHaveProperty('num_ctx');
  });

  it('a server that sends no usage: the reply says it was not counted', async () => {
    const { emulator, client } = await start('lm-studio', { noUsage: true });
    emulator.enqueue({ content: 'ok' });
    const reply = await client.chat({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] });
    expect(reply.metrics.counted).toBe(false);
    expect(reply.metrics.promptEvalCount).toBe(0);
  });

  it.each([
    ['vllm', 'reasoning'],
    ['llama-server', 'reasoning_content'],
  ] as const)('%s: reasoning (%s) arrives as thinking', async (engine, _field) => {
    const { emulator, client } = await start(engine);
    emulator.enqueue({ thinking: 'Let me think about it.', content: 'Four.' });
    const thinking: string[] = [];
    const reply = await client.chat(
      { model: 'm1', messages: [{ role: 'user', content: '2+2?' }] },
      { onDelta: (d) => d.thinking && thinking.push(d.thinking) },
    );
    expect(reply.thinking).toBe('Let me think about it.');
    expect(thinking.join('')).toBe('Let me think about it.');
    expect(reply.content).toBe('Four.');
  });

  it.each([false, true])(
    'tool calls streamed in pieces are put together (every call with index 0: %s)',
    async (allZero) => {
      const { emulator, client } = await start('vllm', { toolCallsAllIndexZero: allZero });
      emulator.enqueue({
        toolCalls: [
          { name: 'read_file', arguments: { path: 'src/a very long path/index.ts' } },
          { name: 'list_dir', arguments: { path: '.', depth: 2 } },
        ],
      });
      const reply = await client.chat({ model: 'm1', messages: [{ role: 'user', content: 'look' }] });
      expect(reply.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
        ['read_file', { path: 'src/a very long path/index.ts' }],
        ['list_dir', { path: '.', depth: 2 }],
      ]);
      expect(reply.toolCalls.every((c) => typeof c.id === 'string' && c.id.startsWith('call_'))).toBe(true);
      expect(reply.doneReason).toBe('tool_calls');
    },
  );

  it('tool_choice "none" goes with the tools, and the engine then calls none', async () => {
    const { emulator, client } = await start('llama-server');
    emulator.enqueue({ content: 'A summary.', toolCalls: [{ name: 'get_time', arguments: {} }] });
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_time',
          description: 'Now.',
          parameters: { type: 'object' as const, properties: {} },
        },
      },
    ];
    const reply = await client.chat({
      model: 'm1',
      messages: [{ role: 'user', content: 'Summarize.' }],
      tools,
      tool_choice: 'none',
    });
    expect(emulator.chats[0].body.tool_choice).toBe('none');
    expect(emulator.chats[0].body.tools).toEqual(tools);
    expect(reply.toolCalls).toEqual([]);
    expect(reply.content).toBe('A summary.');
  });

  it('sends calls back with string arguments and each result with the id of its call', async () => {
    const { emulator, client } = await start('vllm');
    await client.chat({
      model: 'm1',
      messages: [
        { role: 'user', content: 'look' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'call_a', function: { name: 'read_file', arguments: { path: 'a' } } },
            { function: { name: 'read_file', arguments: { path: 'b' } } },
          ],
        },
        { role: 'tool', tool_name: 'read_file', content: 'A' },
        { role: 'tool', tool_name: 'read_file', content: 'B' },
        { role: 'tool', tool_name: 'read_file', content: 'orphan' },
      ],
    });
    expect(emulator.chats[0].error).toBeUndefined();
    const sent = emulator.chats[0].body.messages;
    expect(sent[1].tool_calls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
      { id: 'call_1_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"b"}' } },
    ]);
    expect(sent[2]).toEqual({ role: 'tool', tool_call_id: 'call_a', content: 'A' });
    expect(sent[3]).toEqual({ role: 'tool', tool_call_id: 'call_1_1', content: 'B' });
    // A result whose call is not in the request would be refused as a tool message.
    expect(sent[4]).toEqual({ role: 'user', content: 'Result of the tool read_file:\norphan' });
  });

  it.each(['vllm', 'sglang', 'llama-server', 'litellm'] as const)(
    '%s: a prompt over the window is refused as context-exceeded, naming the window',
    async (engine) => {
      const { client } = await start(engine);
      const error = await client
        .chat({ model: 'm1', messages: [{ role: 'user', content: 'x'.repeat(4 * 3000) }] })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'context-exceeded', window: 2048 });
    },
  );

  it('an over-long prompt refused by an SSE error event after a 200 is context-exceeded too', async () => {
    const { client } = await start('vllm', { contextErrorInStream: true });
    const error = await client
      .chat({ model: 'm1', messages: [{ role: 'user', content: 'x'.repeat(4 * 3000) }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'context-exceeded', window: 2048 });
  });

  it('an error event mid-reply keeps what streamed', async () => {
    const { emulator, client } = await start('llama-server');
    await client.showModel('m1');
    emulator.enqueue({
      content: 'abcdefgh',
      fault: { kind: 'error-event', afterChunks: 2, message: 'slot crashed' },
    });
    const error = await client
      .chat({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'stream', partial: { content: 'abcd' } });
    expect(String((error as Error).message)).toContain('llama-server at');
    expect(String((error as Error).message)).toContain('slot crashed');
  });

  it('events that are not JSON are counted as skipped lines (the turn says so), the rest of the reply kept', async () => {
    const { emulator, client } = await start('vllm');
    await client.showModel('m1');
    emulator.enqueue({
      content: 'abcdefgh',
      fault: { kind: 'malformed-events', afterChunks: 2, events: ['{"choices": [', '<html>502</html>'] },
    });
    const reply = await client.chat({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] });
    expect(reply.content).toBe('abcdefgh');
    expect(reply.skippedLines).toBe(2);
  });

  it('a 429 is asked again after a pause, said through onWait', async () => {
    const { emulator, client } = await start('litellm');
    await client.showModel('m1');
    emulator.enqueue(
      { fault: { kind: 'http', status: 429, message: 'Rate limit exceeded' } },
      { content: 'ok' },
    );
    const waits: string[] = [];
    const reply = await client.chat(
      { model: 'm1', messages: [{ role: 'user', content: 'hi' }] },
      { onWait: (reason) => waits.push(reason) },
    );
    expect(reply.content).toBe('ok');
    expect(emulator.chats).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatch(
      /LiteLLM at .* limits how often it is asked \(HTTP 429: Rate limit exceeded\)\. Trying again in 1 s \(1 of 2\)\./,
    );
  });

  it('a 503 that does not pass gives up after the retries with the server named', async () => {
    const { emulator, client } = await start('llama-server');
    const busy = { fault: { kind: 'http', status: 503, message: 'Loading model' } } as const;
    emulator.enqueue(busy, busy, busy);
    const error = await client
      .chat({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'busy' });
    expect(emulator.chats).toHaveLength(3);
  });

  it('401 says the server wants an API key and which variable to set', async () => {
    emulator = await startOpenAiEmulator({ engine: 'litellm', apiKey: 'sk-1' });
    const error = await new OpenAiClient({ host: emulator.url }).listModels().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http' });
    expect((error as Error).message).toMatch(
      /^The server at http:\/\/127\.0\.0\.1:\d+ wants an API key .*Set OCHAT_API_KEY/,
    );
    const keyed = new OpenAiClient({
      host: emulator.url,
      apiKey: { value: 'sk-1', variable: 'OCHAT_API_KEY' },
    });
    expect(await keyed.listModels()).toHaveLength(1);
  });

  it('a model the server does not serve is model-not-found, listing what it serves', async () => {
    const { client } = await start('vllm');
    const error = await client.showModel('nope').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'model-not-found' });
    expect((error as Error).message).toContain("has no model 'nope'. It serves: m1.");
  });

  it("Ollama's lifecycle commands say plainly the server has none", async () => {
    const { client } = await start('vllm');
    await client.listModels();
    await expect(client.runningModels()).rejects.toMatchObject({ kind: 'unsupported-by-server' });
    await expect(client.unloadModel()).rejects.toThrow(/\/unload is Ollama's: vLLM at .* has no such thing/);
    await expect(client.pullModel('x', () => {})).rejects.toThrow(/\/pull is Ollama's/);
  });

  it('a /v1 URL reaches the same endpoints', async () => {
    emulator = await startOpenAiEmulator({ engine: 'llama-server', models: [{ id: 'tiny', window: 2048 }] });
    const client = new OpenAiClient({ host: `${emulator.url}/v1` });
    expect((await client.showModel('tiny')).serverWindow?.tokens).toBe(2048);
    expect(emulator.requests.map((r) => r.path)).toEqual(['/v1/models', '/props']);
  });
});
