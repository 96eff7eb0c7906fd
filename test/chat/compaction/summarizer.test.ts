import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveSummarizer } from '../../../src/chat/compaction/summarizer.js';
import { connectModel } from '../../../src/chat/request/model-selection.js';
import { OllamaClient } from '../../../src/ollama/client.js';
import { AbortedError } from '../../../src/ollama/errors.js';
import { type Emulator, startEmulator } from '../../support/emulator.js';

let emu: Emulator;
let client: OllamaClient;

beforeAll(async () => {
  emu = await startEmulator({
    models: [
      { name: 'qwen3:latest', capabilities: ['completion', 'tools', 'thinking'] },
      { name: 'cheap:latest', numCtxParam: 2048 },
    ],
    tokensPerSecond: Number.POSITIVE_INFINITY,
  });
  client = new OllamaClient({ host: emu.url });
});
afterAll(() => emu.close());
afterEach(() => emu.respondWith(undefined));

describe('resolveSummarizer', () => {
  it('with the chat model, sends the chat num_ctx, think off, the summary budget and both prompts', async () => {
    const chat = await connectModel(client, 'qwen3', { flag: 12288 });
    const target = await resolveSummarizer(client, chat, undefined);
    expect(target).toMatchObject({ model: 'qwen3', numCtx: 12288 });
    emu.enqueue({ content: 'The user is Ada.', thinking: 'should not be asked for' });
    const before = emu.chats.length;
    const reply = await target.ask({
      system: 'RULES',
      prompt: '<messages>\n[0] user: I am Ada\n',
      numPredict: 512,
    });
    expect(reply).toEqual({ text: 'The user is Ada.', cutOff: false });
    expect(emu.chats).toHaveLength(before + 1);
    const { body } = emu.chats[before];
    expect(body.model).toBe('qwen3');
    expect(body.messages).toEqual([
      { role: 'system', content: 'RULES' },
      { role: 'user', content: '<messages>\n[0] user: I am Ada\n' },
    ]);
    expect(body.options).toMatchObject({ num_ctx: 12288, num_predict: 512 });
    expect(body.think).toBe(false);
    expect(body.tools).toBeUndefined();
  });

  it('the chat model is not reloaded by the summarizer', async () => {
    const chat = await connectModel(client, 'qwen3', { flag: 12288 });
    const target = await resolveSummarizer(client, chat, 'qwen3');
    // The chat itself loads the model with its window…
    emu.enqueue({ content: 'hello' });
    await client.chat({
      model: 'qwen3',
      messages: [{ role: 'user', content: 'hi' }],
      options: { num_ctx: 12288 },
    });
    const loads = emu.loads;
    // …and the summarizer, sending the same window, does not make the server reload it.
    emu.enqueue({ content: 'x' }, { content: 'y' });
    await target.ask({ system: 's', prompt: 'p', numPredict: 64 });
    await target.ask({ system: 's', prompt: 'p', numPredict: 64 });
    expect(emu.loads).toBe(loads);
    expect(emu.chats.at(-1)?.numCtx).toBe(12288);
  });

  it('with compaction.model, uses that model with its own window and no think field', async () => {
    const chat = await connectModel(client, 'qwen3', { flag: 12288 });
    const target = await resolveSummarizer(client, chat, 'cheap');
    expect(target).toMatchObject({ model: 'cheap', numCtx: 2048 });
    emu.enqueue({ content: 'short' });
    await target.ask({ system: 's', prompt: 'p', numPredict: 100 });
    const { body } = emu.chats.at(-1)!;
    expect(body.model).toBe('cheap');
    expect(body.options).toMatchObject({ num_ctx: 2048, num_predict: 100 });
    expect('think' in body).toBe(false);
  });

  it('says when the server cut the reply off at num_predict (done_reason length)', async () => {
    const chat = await connectModel(client, 'qwen3', {});
    const target = await resolveSummarizer(client, chat, undefined);
    emu.enqueue({ content: 'a'.repeat(100) });
    const reply = await target.ask({ system: 's', prompt: 'p', numPredict: 5 });
    // The emulator, like Ollama, stops at num_predict tokens (4 characters each here).
    expect(reply).toEqual({ text: 'a'.repeat(20), cutOff: true });
  });

  it('passes the abort signal to the request', async () => {
    const chat = await connectModel(client, 'qwen3', {});
    const target = await resolveSummarizer(client, chat, undefined);
    emu.enqueue({ content: 'never finishes', fault: { kind: 'hang', afterChunks: 1 } });
    const abort = new AbortController();
    const sent = emu.chats.length;
    const pending = target.ask({ system: 's', prompt: 'p', numPredict: 10, signal: abort.signal });
    await vi.waitFor(() => expect(emu.chats.length).toBe(sent + 1));
    abort.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
  });

  it("continuing the chat's request: its messages, tools and options, then the prompt; a tool call is said, not run", async () => {
    const chat = await connectModel(client, 'qwen3', { flag: 12288 });
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
    const frame = () => ({ tools, options: { temperature: 0.2, num_ctx: 12288 } });
    const target = await resolveSummarizer(client, chat, undefined, () => '10m', frame);
    expect(target.continuesChat).toBe(true);
    const continues = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'I am Ada.' },
      { role: 'assistant' as const, content: 'Hello Ada.' },
    ];
    emu.enqueue({ toolCalls: [{ name: 'get_time', arguments: {} }] });
    const reply = await target.ask({ system: 'unused', prompt: 'Summarize.', numPredict: 64, continues });
    expect(reply).toEqual({ text: '', cutOff: false, calledTools: true });
    const { body } = emu.chats.at(-1)!;
    expect(body).toEqual({
      model: 'qwen3',
      messages: [...continues, { role: 'user', content: 'Summarize.' }],
      options: { temperature: 0.2, num_ctx: 12288, num_predict: 64 },
      tools,
      think: false,
      keep_alive: '10m',
      truncate: false,
      stream: true,
    });
    // Without a frame (compaction.reuse_cache: off), or with another model, there is nothing to continue.
    expect((await resolveSummarizer(client, chat, undefined)).continuesChat).toBe(false);
    const other = await resolveSummarizer(client, chat, 'cheap', undefined, frame);
    expect(other.continuesChat).toBe(false);
    await expect(other.ask({ system: 's', prompt: 'p', numPredict: 8, continues })).rejects.toThrow(
      /cannot continue/,
    );
  });

  it('fails for an unknown compaction.model', async () => {
    const chat = await connectModel(client, 'qwen3', {});
    await expect(resolveSummarizer(client, chat, 'missing')).rejects.toThrow(/missing/);
  });
});
