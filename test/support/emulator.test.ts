import { type ChatResponse, Ollama } from 'ollama';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unusedPort } from './down-host.js';
import { countPromptTokens, type Emulator, type EmulatorModel, startEmulator } from './emulator.js';
import { MALFORMED_LINE } from './emulator-stream.js';

const MODELS: EmulatorModel[] = [
  {
    name: 'qwen3:latest',
    family: 'qwen3',
    trainedContext: 40960,
    numCtxParam: 8192,
    capabilities: ['completion', 'tools', 'thinking'],
  },
  { name: 'llama3.2:latest' },
];

let emu: Emulator;
let client: Ollama;

beforeEach(async () => {
  emu = await startEmulator({ models: MODELS });
  client = new Ollama({ host: emu.url });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await emu.close();
});

/** Collects a streamed chat: every chunk, the joined content and thinking, and the done chunk. */
async function collect(stream: AsyncIterable<ChatResponse>) {
  const chunks: ChatResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return {
    chunks,
    content: chunks.map((c) => c.message.content).join(''),
    thinking: chunks.map((c) => c.message.thinking ?? '').join(''),
    done: chunks[chunks.length - 1],
  };
}

/** Reads the stream until it throws, returning the chunks seen and the error. */
async function collectUntilError(stream: AsyncIterable<{ message: { content: string } }>) {
  const contents: string[] = [];
  try {
    for await (const chunk of stream) contents.push(chunk.message.content);
  } catch (error) {
    return { contents, error: error as Error };
  }
  throw new Error('stream ended without an error');
}

const user = (content: string) => ({ role: 'user', content });

describe('streaming chat', () => {
  it('streams thinking, then content in 4-character pieces, then done with metrics', async () => {
    emu.enqueue({ thinking: 'User greets.', content: 'Hello there!' });
    const messages = [{ role: 'system', content: 'Be kind.' }, user('Hi')];
    const stream = await client.chat({ model: 'qwen3', messages, stream: true });
    const { chunks, content, thinking, done } = await collect(stream);

    expect(thinking).toBe('User greets.');
    expect(content).toBe('Hello there!');
    expect(chunks.slice(0, 3).every((c) => c.message.content === '' && c.message.thinking)).toBe(true);
    expect(chunks.slice(3, -1).map((c) => c.message.content)).toEqual(['Hell', 'o th', 'ere!']);
    expect(done).toMatchObject({
      model: 'qwen3',
      done: true,
      done_reason: 'stop',
      message: { role: 'assistant', content: '' },
    });
    expect(done.prompt_eval_count).toBe(countPromptTokens(messages));
    expect(done.eval_count).toBe(6);
    for (const key of ['total_duration', 'load_duration', 'prompt_eval_duration', 'eval_duration'] as const) {
      expect(done[key]).toBeGreaterThan(0);
    }
    // At 1000 tokens/s, 6 tokens take 6 ms of eval time.
    expect(done.eval_duration).toBe(6_000_000);
    expect(done.total_duration).toBeGreaterThanOrEqual(done.eval_duration + done.load_duration);
    expect(
      chunks.slice(0, -1).every((c) => c.done === false && /^\d{4}-\d\d-\d\dT/.test(String(c.created_at))),
    ).toBe(true);
  });

  it('answers with application/x-ndjson, one JSON object per line', async () => {
    const response = await fetch(`${emu.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'llama3.2', messages: [user('ping')] }),
    });
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await response.text()).trimEnd().split('\n');
    const objects = lines.map((line) => JSON.parse(line));
    expect(objects.map((o) => o.message.content).join('')).toBe('Echo: ping');
    expect(objects.at(-1).done).toBe(true);
  });

  it('leaves thinking out when the request says think:false', async () => {
    emu.enqueue({ thinking: 'hidden', content: 'ok' });
    const stream = await client.chat({ model: 'qwen3', messages: [user('x')], think: false, stream: true });
    const { thinking, content, done } = await collect(stream);
    expect(thinking).toBe('');
    expect(content).toBe('ok');
    expect(done.eval_count).toBe(1);
  });

  it('streams benchmark filler of the asked size as fast as possible', async () => {
    const fast = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
    try {
      fast.enqueue({ tokens: 20_000 });
      const stream = await new Ollama({ host: fast.url }).chat({
        model: 'llama3.2',
        messages: [user('go')],
        stream: true,
      });
      const { chunks, content, done } = await collect(stream);
      expect(chunks).toHaveLength(20_001);
      expect(content).toHaveLength(80_000);
      expect(done.eval_count).toBe(20_000);
    } finally {
      await fast.close();
    }
  });

  it('streams content in pieces of pieceChars, counting the tokens of the text', async () => {
    emu.enqueue({ content: 'x'.repeat(100), pieceChars: 30 });
    const stream = await client.chat({ model: 'llama3.2', messages: [user('go')], stream: true });
    const { chunks, content, done } = await collect(stream);
    expect(chunks).toHaveLength(5); // 30 + 30 + 30 + 10, then the done line
    expect(content).toBe('x'.repeat(100));
    expect(done.eval_count).toBe(25);
  });

  it('stops at options.num_predict with done_reason length', async () => {
    emu.enqueue({ content: 'a'.repeat(100) });
    const stream = await client.chat({
      model: 'llama3.2',
      messages: [user('x')],
      options: { num_predict: 5 },
      stream: true,
    });
    const { content, done } = await collect(stream);
    expect(content).toBe('a'.repeat(20));
    expect(done).toMatchObject({ done_reason: 'length', eval_count: 5 });
  });
});

describe('stream:false', () => {
  it('returns one object with the whole message and the metrics', async () => {
    emu.enqueue({ thinking: 'Hmm.', content: 'Whole answer.' });
    const reply = await client.chat({ model: 'qwen3', messages: [user('q')], stream: false });
    expect(reply.message).toEqual({ role: 'assistant', content: 'Whole answer.', thinking: 'Hmm.' });
    expect(reply).toMatchObject({ done: true, done_reason: 'stop', eval_count: 1 + 4 });
    expect(reply.prompt_eval_count).toBe(countPromptTokens([user('q')]));
  });

  it('stops at options.num_predict with done_reason length, thinking counted in it', async () => {
    emu.enqueue({ thinking: 'Hmm hmm.', content: 'a'.repeat(100) });
    const reply = await client.chat({
      model: 'qwen3',
      messages: [user('q')],
      options: { num_predict: 5 },
      stream: false,
    });
    expect(reply.message.thinking).toBe('Hmm hmm.');
    expect(reply.message.content).toBe('a'.repeat(12));
    expect(reply).toMatchObject({ done_reason: 'length', eval_count: 5 });
  });

  it('turns an error line into HTTP 500 with the error', async () => {
    emu.enqueue({
      content: 'partial',
      fault: { kind: 'error-line', afterChunks: 1, error: 'runner crashed' },
    });
    const error = await client.chat({ model: 'llama3.2', messages: [user('q')] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ResponseError' });
    expect(error).toMatchObject({ status_code: 500, error: 'runner crashed' });
  });
});

describe('tool calls', () => {
  it('sends the calls whole in one chunk, arguments as an object, then done', async () => {
    emu.enqueue({
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Tokyo' } },
        { name: 'read_file', arguments: { path: '/etc/hosts', lines: 3 } },
      ],
    });
    const tools = [{ type: 'function', function: { name: 'get_weather', description: 'w', parameters: {} } }];
    const stream = await client.chat({ model: 'qwen3', messages: [user('weather?')], tools, stream: true });
    const { chunks, done } = await collect(stream);
    expect(chunks).toHaveLength(2);
    const calls =
      (chunks[0].message as { tool_calls?: { id: string; function: unknown }[] }).tool_calls ?? [];
    expect(calls.map((c) => c.function)).toEqual([
      { index: 0, name: 'get_weather', arguments: { city: 'Tokyo' } },
      { index: 1, name: 'read_file', arguments: { path: '/etc/hosts', lines: 3 } },
    ]);
    for (const call of calls) expect(call.id).toMatch(/^call_[a-z0-9]{8}$/);
    expect(done.done).toBe(true);
    expect(done.eval_count).toBeGreaterThan(0);
  });

  it('includes the tool calls in a non-streamed reply', async () => {
    emu.enqueue({ content: 'Checking.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const reply = await client.chat({ model: 'qwen3', messages: [user('weather?')], tools: [] });
    expect(reply.message.content).toBe('Checking.');
    expect(reply.message.tool_calls?.[0].function).toEqual({
      index: 0,
      name: 'get_weather',
      arguments: { city: 'Oslo' },
    });
  });
});

describe('malformed tool calls', () => {
  it('sends rawToolCalls exactly as scripted, in a well-formed chunk line', async () => {
    const raw = [{ function: {} }, null, { function: { name: 42, arguments: 'x' } }];
    emu.enqueue({ rawToolCalls: raw });
    const response = await fetch(`${emu.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen3', messages: [user('go')] }),
    });
    const lines = (await response.text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({
      model: 'qwen3',
      message: { role: 'assistant', tool_calls: raw },
      done: false,
    });
    expect(lines.at(-1)).toMatchObject({ done: true });
  });

  it.each([
    [
      { function: { name: 42, arguments: {} } },
      'json: cannot unmarshal number into Go struct field ToolCallFunction.messages.tool_calls.function.name of type string',
    ],
    [
      { function: { name: 'f', arguments: 'x' } },
      'json: cannot unmarshal string into Go struct field ToolCallFunction.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments',
    ],
    [
      'f',
      'json: cannot unmarshal string into Go struct field Message.messages.tool_calls of type api.ToolCall',
    ],
  ])('refuses a request that sends back %j with HTTP 400, as Go decoding does', async (call, error) => {
    const messages = [user('go'), { role: 'assistant', content: '', tool_calls: [call] }];
    const response = await fetch(`${emu.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen3', messages }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error });
  });

  it('accepts null calls and null functions (Go decodes them to zero values)', async () => {
    const messages = [user('go'), { role: 'assistant', content: '', tool_calls: [null, { function: null }] }];
    const reply = await client.chat({ model: 'qwen3', messages: messages as never });
    expect(reply.done).toBe(true);
  });
});

describe('model endpoints', () => {
  it('lists the models with their details', async () => {
    const { models } = await client.list();
    expect(models.map((m) => m.name)).toEqual(['qwen3:latest', 'llama3.2:latest']);
    expect(models[0]).toMatchObject({
      model: 'qwen3:latest',
      details: { format: 'gguf', family: 'qwen3', families: ['qwen3'] },
    });
    expect(models[0].digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('shows parameters, model_info and capabilities', async () => {
    const shown = await client.show({ model: 'qwen3' });
    expect(shown.parameters).toMatch(/^num_ctx {24}8192\nstop {27}"/);
    expect(shown.model_info).toMatchObject({
      'general.architecture': 'qwen3',
      'qwen3.context_length': 40960,
    });
    expect(shown.capabilities).toEqual(['completion', 'tools', 'thinking']);
    expect(shown.details.family).toBe('qwen3');
    expect(shown.modelfile).toContain('PARAMETER num_ctx 8192');
    expect(shown.template).not.toBe('');
  });

  it('leaves num_ctx out of parameters when the Modelfile does not set it', async () => {
    const shown = await client.show({ model: 'llama3.2:latest' });
    expect(shown.parameters).not.toContain('num_ctx');
    expect(shown.model_info).toMatchObject({
      'general.architecture': 'llama',
      'llama.context_length': 131072,
    });
  });

  it('shows the Modelfile SYSTEM, LICENSE and other parameters in their fields and in the modelfile', async () => {
    emu.setModels([
      {
        name: 'tutor',
        system: 'You are a patient tutor.',
        license: 'MIT License\nCopyright',
        parameters: { temperature: 0.6, mirostat_tau: 'x' },
      },
    ]);
    const shown = await client.show({ model: 'tutor' });
    expect(shown.system).toBe('You are a patient tutor.');
    expect(shown.license).toBe('MIT License\nCopyright');
    expect(shown.parameters).toBe(
      [
        'temperature                    0.6',
        'mirostat_tau                   "x"',
        'stop                           "<|eot_id|>"',
      ].join('\n'),
    );
    expect(shown.modelfile).toContain('SYSTEM """You are a patient tutor."""\nPARAMETER temperature 0.6\n');
    expect(shown.modelfile).toContain('LICENSE """MIT License\nCopyright"""');
  });

  it('omits system and license when the Modelfile has none, as Ollama does (omitempty)', async () => {
    const response = await fetch(`${emu.url}/api/show`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen3' }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).not.toContain('system');
    expect(Object.keys(body)).not.toContain('license');
    expect(body.modelfile).not.toContain('SYSTEM');
  });

  it('applies the Modelfile SYSTEM when the first message is not a system message', async () => {
    const system = { role: 'system', content: 'You are a patient tutor.' };
    emu.setModels([{ name: 'tutor', system: system.content }]);
    await client.chat({ model: 'tutor', messages: [user('hi')] });
    await client.chat({ model: 'tutor', messages: [{ role: 'system', content: 'Mine.' }, user('hi')] });
    expect(emu.chats[0].keptMessages[0]).toEqual(system);
    expect(emu.chats[0].promptTokens).toBe(countPromptTokens([system, user('hi')]));
    expect(emu.chats[1].keptMessages.map((m) => m.content)).toEqual(['Mine.', 'hi']);
  });

  it('accepts the legacy `name` field of /api/show', async () => {
    const response = await fetch(`${emu.url}/api/show`, {
      method: 'POST',
      body: JSON.stringify({ name: 'qwen3' }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { capabilities: string[] }).capabilities).toContain('thinking');
  });

  it('lists in /api/ps only models loaded by earlier chats, with their window', async () => {
    expect((await client.ps()).models).toEqual([]);
    await client.chat({ model: 'qwen3', messages: [user('x')] });
    const { models } = await client.ps();
    expect(models).toHaveLength(1);
    expect(models[0]).toMatchObject({ name: 'qwen3:latest', model: 'qwen3:latest', context_length: 8192 });
    expect(new Date(models[0].expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  it('reports the version and says it is running', async () => {
    expect(await client.version()).toEqual({ version: '0.33.0' });
    const root = await fetch(emu.url);
    expect(await root.text()).toBe('Ollama is running');
    expect((await fetch(emu.url, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers 404 for unknown models', async () => {
    for (const call of [
      () => client.show({ model: 'nope' }),
      () => client.chat({ model: 'nope', messages: [user('x')], stream: true }),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ResponseError' });
      expect(error).toMatchObject({ status_code: 404, error: "model 'nope' not found" });
    }
    expect(emu.chats[0].error).toEqual({ status: 404, message: "model 'nope' not found" });
  });

  it('sees a replaced model list', async () => {
    emu.setModels([{ name: 'mistral' }]);
    expect((await client.list()).models.map((m) => m.name)).toEqual(['mistral:latest']);
  });
});

describe('capability errors', () => {
  it('refuses tools to a model without the tools capability', async () => {
    const tools = [{ type: 'function', function: { name: 'f', description: 'd', parameters: {} } }];
    const error = await client
      .chat({ model: 'llama3.2', messages: [user('x')], tools, stream: true })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status_code: 400,
      error: 'registry.ollama.ai/library/llama3.2:latest does not support tools',
    });
  });

  it('refuses think to a model without the thinking capability', async () => {
    const error = await client
      .chat({ model: 'llama3.2', messages: [user('x')], think: true, stream: true })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status_code: 400, error: '"llama3.2" does not support thinking' });
  });
});

describe('faults', () => {
  it('sends an HTTP error before the first byte', async () => {
    emu.enqueue({ fault: { kind: 'http', status: 503, error: 'server busy' } });
    const error = await client
      .chat({ model: 'llama3.2', messages: [user('x')], stream: true })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ResponseError' });
    expect(error).toMatchObject({ status_code: 503, error: 'server busy' });
  });

  it('ends with an error line mid-stream: the iterator throws a plain Error with the message', async () => {
    emu.enqueue({
      content: 'abcdefghijkl',
      fault: { kind: 'error-line', afterChunks: 2, error: 'model crashed' },
    });
    const stream = await client.chat({ model: 'llama3.2', messages: [user('x')], stream: true });
    const { contents, error } = await collectUntilError(stream);
    expect(contents).toEqual(['abcd', 'efgh']);
    expect(error.name).toBe('Error'); // plain Error, not the client's ResponseError
    expect(error.message).toBe('model crashed');
  });

  it('ends without a done line', async () => {
    emu.enqueue({ content: 'abcdefgh', fault: { kind: 'no-done', afterChunks: 1 } });
    const stream = await client.chat({ model: 'llama3.2', messages: [user('x')], stream: true });
    const { contents, error } = await collectUntilError(stream);
    expect(contents).toEqual(['abcd']);
    expect(error.message).toMatch(/did not receive done/i);
  });

  it('injects a malformed line that the client skips with a console.warn', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    emu.enqueue({ content: 'abcdefgh', fault: { kind: 'malformed-line', afterChunks: 1 } });
    const stream = await client.chat({ model: 'llama3.2', messages: [user('x')], stream: true });
    const { content, done } = await collect(stream);
    expect(content).toBe('abcdefgh');
    expect(done.done).toBe(true);
    expect(warn).toHaveBeenCalledWith('invalid json: ', MALFORMED_LINE);
  });

  it('delays the first byte (a model loading) and reports it as load time', async () => {
    emu.enqueue({ content: 'late', firstByteDelayMs: 300 });
    let answered = false;
    const pending = client.chat({ model: 'llama3.2', messages: [user('x')] }).then((reply) => {
      answered = true;
      return reply;
    });
    await vi.waitFor(() => expect(emu.chats).toHaveLength(1));
    expect(answered).toBe(false);
    const reply = await pending;
    expect(reply.message.content).toBe('late');
    expect(reply.load_duration).toBeGreaterThanOrEqual(250_000_000);
  });

  it('lets a client give up during a slow first byte without upsetting the server', async () => {
    emu.enqueue({ content: 'too late', firstByteDelayMs: 60_000 });
    const body = JSON.stringify({ model: 'llama3.2', messages: [user('x')] });
    const error = await fetch(`${emu.url}/api/chat`, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(100),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TimeoutError' });
    const next = await client.chat({ model: 'llama3.2', messages: [user('still there?')] });
    expect(next.message.content).toBe('Echo: still there?');
  });

  it('hangs after some chunks until the client aborts, and keeps serving', async () => {
    emu.enqueue({ content: 'abcdefghijkl', fault: { kind: 'hang', afterChunks: 1 } });
    const stream = await client.chat({ model: 'llama3.2', messages: [user('x')], stream: true });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const chunk of stream) {
        seen.push(chunk.message.content);
        stream.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['abcd']);
    const next = await client.chat({ model: 'llama3.2', messages: [user('again')] });
    expect(next.message.content).toBe('Echo: again');
  });

  it('sends headers for a hang before any chunk, so the client can abort', async () => {
    emu.enqueue({ content: 'never', fault: { kind: 'hang', afterChunks: 0 } });
    const stream = await client.chat({ model: 'llama3.2', messages: [user('x')], stream: true });
    const reading = collect(stream);
    stream.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('sends an endless line: a chunk line that never ends, then the end of the body', async () => {
    emu.enqueue({ content: 'abcdefgh', fault: { kind: 'endless-line', afterChunks: 1, bytes: 100_000 } });
    const response = await fetch(`${emu.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen3', messages: [user('go')] }),
    });
    const lines = (await response.text()).split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]).message.content).toBe('abcd');
    expect(lines[1]).toMatch(
      /^\{"model":"qwen3","created_at":"[^"]+","message":\{"role":"assistant","content":"a+$/,
    );
    expect(lines[1].length).toBeGreaterThan(100_000);
  });

  it('closes with a stream still hanging, ending it for the client', async () => {
    emu.enqueue({ content: 'abcd', fault: { kind: 'hang', afterChunks: 1 } });
    const stream = await client.chat({ model: 'llama3.2', messages: [user('x')], stream: true });
    const reading = collect(stream);
    await emu.close();
    await expect(reading).rejects.toThrow();
    emu = await startEmulator(); // afterEach closes it
  });
});

describe('silent truncation', () => {
  const longHistory = [
    { role: 'system', content: 'S'.repeat(40) },
    user(`first ${'a'.repeat(200)}`),
    { role: 'assistant', content: 'b'.repeat(200) },
    user('c'.repeat(200)),
    { role: 'assistant', content: 'd'.repeat(200) },
    user('latest question'),
  ];

  it('drops the oldest messages to fit num_ctx, keeps the system prompt, and says nothing', async () => {
    const sent = countPromptTokens(longHistory);
    const reply = await client.chat({ model: 'llama3.2', messages: longHistory, options: { num_ctx: 100 } });
    expect(reply.done_reason).toBe('stop');
    expect(reply.prompt_eval_count).toBeLessThan(sent);
    expect(reply.prompt_eval_count).toBeLessThanOrEqual(100);
    expect(reply.message.content).toBe('Echo: latest question');
    const [record] = emu.chats;
    expect(record).toMatchObject({
      truncated: true,
      numCtx: 100,
      promptTokens: sent,
      promptEvalCount: reply.prompt_eval_count,
    });
    expect(record.keptMessages.map((m) => m.content)).toEqual([
      longHistory[0].content,
      'd'.repeat(200),
      'latest question',
    ]);
  });

  it('does not truncate a prompt that fits', async () => {
    await client.chat({ model: 'llama3.2', messages: longHistory });
    expect(emu.chats[0]).toMatchObject({
      truncated: false,
      numCtx: 4096,
      promptEvalCount: countPromptTokens(longHistory),
    });
  });
});

describe('num_ctx and loads', () => {
  it('uses request > Modelfile > server default, clamped to the trained context', async () => {
    await client.chat({ model: 'llama3.2', messages: [user('x')] });
    await client.chat({ model: 'qwen3', messages: [user('x')] });
    await client.chat({ model: 'qwen3', messages: [user('x')], options: { num_ctx: 16384 } });
    await client.chat({ model: 'qwen3', messages: [user('x')], options: { num_ctx: 100_000 } });
    expect(emu.chats.map((c) => c.numCtx)).toEqual([4096, 8192, 16384, 40960]);
  });

  it('counts a load on first use and on every num_ctx change of a model', async () => {
    expect(emu.loads).toBe(0);
    await client.chat({ model: 'qwen3', messages: [user('x')], options: { num_ctx: 8192 } });
    await client.chat({ model: 'qwen3', messages: [user('x')], options: { num_ctx: 8192 } });
    expect(emu.loads).toBe(1);
    await client.chat({ model: 'qwen3', messages: [user('x')], options: { num_ctx: 4096 } });
    expect(emu.loads).toBe(2);
    await client.chat({ model: 'llama3.2', messages: [user('x')] });
    expect(emu.loads).toBe(3);
    await client.chat({ model: 'qwen3', messages: [user('x')], options: { num_ctx: 4096 } });
    expect(emu.loads).toBe(3);
  });

  it('answers empty messages with a load-only response, and keep_alive 0 with an unload', async () => {
    const loaded = await client.chat({ model: 'llama3.2', messages: [] });
    expect(loaded).toMatchObject({
      done: true,
      done_reason: 'load',
      message: { role: 'assistant', content: '' },
    });
    expect(emu.loads).toBe(1);
    expect((await client.ps()).models).toHaveLength(1);
    const unloaded = await client.chat({ model: 'llama3.2', messages: [], keep_alive: 0 });
    expect(unloaded.done_reason).toBe('unload');
    expect((await client.ps()).models).toEqual([]);
  });
});

describe('replies and recording', () => {
  it('asks the responder first, then the queue, then echoes', async () => {
    emu.enqueue({ content: 'queued' });
    emu.respondWith((req) =>
      req.body.messages.at(-1).content === 'summarize' ? { content: 'summary' } : undefined,
    );
    const ask = async (text: string) =>
      (await client.chat({ model: 'llama3.2', messages: [user(text)] })).message.content;
    expect(await ask('summarize')).toBe('summary');
    expect(await ask('hello')).toBe('queued');
    expect(await ask('hello')).toBe('Echo: hello');
    emu.respondWith(undefined);
    emu.enqueue({ content: 'after' });
    expect(await ask('summarize')).toBe('after');
  });

  it('records every request in order, and each chat body exactly as sent', async () => {
    await client.list();
    const body = {
      model: 'qwen3',
      messages: [user('hi')],
      options: { num_ctx: 8192, temperature: 0.2 },
      think: false,
      stream: true,
    };
    await collect(await client.chat({ ...body, stream: true }));
    expect(emu.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/tags', 'POST /api/chat']);
    expect(emu.requests[1].body).toEqual(body);
    expect(emu.chats).toHaveLength(1);
    expect(emu.chats[0].body).toEqual(body);
    expect(emu.chats[0].model).toBe('qwen3:latest');
  });

  it('answers 500 when the responder throws', async () => {
    emu.respondWith(() => {
      throw new Error('bad script');
    });
    const error = await client.chat({ model: 'llama3.2', messages: [user('x')] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status_code: 500 });
    expect(String((error as Error).message)).toContain('bad script');
  });
});

describe('a server that is down', () => {
  it('refuses connections on unusedPort()', async () => {
    const port = await unusedPort();
    const error = await fetch(`http://127.0.0.1:${port}/api/version`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
  });
});
