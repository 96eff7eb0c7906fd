/** TurnRunner against a scripted backend: replies, tool rounds, and every way a reply can fail. */
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeChat, fakeChat } from '../../support/fake-chat.js';

let chat: FakeChat | undefined;
afterEach(() => {
  chat?.dispose();
  chat = undefined;
});

async function open(options: Parameters<typeof fakeChat>[0] = {}): Promise<FakeChat> {
  chat = await fakeChat(options);
  return chat;
}

describe('TurnRunner', () => {
  it('streams a reply into the transcript and the screen, and shows its speed', async () => {
    const { backend, parts, connected, store, userSays } = await open();
    backend.enqueue({ content: 'Hello there.', promptEvalCount: 40, evalCount: 7 });
    userSays('hi');
    await parts.turns.run(connected);

    expect(parts.conversation.transcript.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello there.'],
    ]);
    expect(store.get().items).toContainEqual(
      expect.objectContaining({ kind: 'assistant', markdown: 'Hello there.' }),
    );
    expect(store.get().lastStats).toBe('7 tokens');
    expect(store.get()).toMatchObject({ busy: undefined, live: undefined });
    expect(backend.requests[0].messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(backend.requests[0].options).toMatchObject({ num_ctx: 8192 });
  });

  it('runs the tool calls of a reply and sends their results back', async () => {
    const { backend, parts, connected, userSays } = await open({
      model: { capabilities: ['completion', 'tools'] },
    });
    backend.enqueue(
      { toolCalls: [{ function: { name: 'get_time', arguments: {} } }] },
      { content: 'It is morning.' },
    );
    userSays('what time is it?');
    await parts.turns.run(connected);

    expect(backend.requests[0].tools?.map((t) => t.function.name)).toContain('get_time');
    expect(backend.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', tool_name: 'get_time' });
    expect(parts.conversation.transcript.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('asks again without tools when the model refuses them', async () => {
    const { backend, parts, connected, notices, userSays } = await open({
      model: { capabilities: ['completion', 'tools'] },
    });
    backend.enqueue({ unsupported: 'tools' }, { content: 'Fine without.' });
    userSays('hi');
    await parts.turns.run(connected);

    expect(backend.requests).toHaveLength(2);
    expect(backend.requests[0].tools).toBeDefined();
    expect(backend.requests[1].tools).toBeUndefined();
    expect(notices().map((n) => n.text)).toEqual([
      'fake:latest does not support tools; continuing without them.',
    ]);
    expect(parts.conversation.transcript.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Fine without.',
    });
    expect(parts.turns.retryable).toBe(false);
  });

  it('shows a failure before any reply and lets an empty Enter retry the turn', async () => {
    const { backend, parts, connected, notices, userSays } = await open();
    backend.enqueue({ fail: 'http', message: 'Ollama answered HTTP 500: boom.' });
    userSays('hi');
    await parts.turns.run(connected);

    expect(notices().map((n) => [n.level, n.text])).toEqual([
      ['error', 'Ollama answered HTTP 500: boom.'],
      ['info', 'Press Enter on an empty prompt to retry.'],
    ]);
    expect(parts.conversation.transcript).toHaveLength(1);
    expect(parts.turns.retryable).toBe(true);

    backend.enqueue({ content: 'Second time lucky.' });
    await parts.turns.run(connected);
    expect(parts.turns.retryable).toBe(false);
    expect(parts.conversation.transcript.at(-1)).toMatchObject({ content: 'Second time lucky.' });
  });

  it('keeps the part of a reply that streamed before a failure, marked interrupted', async () => {
    const { backend, parts, connected, notices, store, userSays } = await open();
    backend.enqueue({
      fail: 'stream',
      message: 'Ollama stopped mid-reply: out of memory.',
      partial: 'Half a',
    });
    userSays('hi');
    await parts.turns.run(connected);

    expect(parts.conversation.transcript.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Half a',
      interrupted: true,
    });
    expect(store.get().items).toContainEqual(
      expect.objectContaining({ kind: 'assistant', markdown: 'Half a', interrupted: true }),
    );
    expect(notices().map((n) => n.text)).toEqual([
      'Ollama stopped mid-reply: out of memory.',
      'Press Enter on an empty prompt to retry.',
    ]);
    expect(parts.turns.retryable).toBe(true);
  });

  it('keeps the partial reply when the user cancels mid-stream', async () => {
    const { backend, parts, connected, notices, userSays, until } = await open();
    backend.enqueue({ hang: true, partial: 'Once upon' });
    userSays('tell me a story');
    const running = parts.turns.run(connected);
    await backend.hanging();
    expect(parts.abort.cancel()).toBe(true);
    await running;
    await until(() => notices().length > 0);

    expect(notices().map((n) => [n.level, n.text])).toEqual([
      ['warning', 'Reply interrupted; the partial reply is kept.'],
    ]);
    expect(parts.conversation.transcript.at(-1)).toMatchObject({ content: 'Once upon', interrupted: true });
    expect(parts.turns.retryable).toBe(false);
  });

  it('keeps a cancelled partial reply before the turn ends, and counts it in the meter: the next message carries it', async () => {
    const { backend, parts, connected, store, userSays } = await open();
    const partial = 'Once upon a time. '.repeat(250); // 4,500 chars: about 1.1k tokens at 4 per token
    backend.enqueue({ hang: true, partial, abortLatencyMs: 50 });
    userSays('tell me a story');
    const running = parts.turns.run(connected);
    await backend.hanging();
    parts.abort.cancel();
    await running;
    // In the transcript when the turn ends, before anything typed next.
    expect(parts.conversation.transcript.at(-1)).toMatchObject({ role: 'assistant', interrupted: true });
    expect(store.get().used).toBeGreaterThan(1100);

    backend.enqueue({ content: 'Go on?' });
    await parts.sender.send('and then?');
    expect(backend.requests[1].messages.map((m) => m.content)).toEqual([
      'tell me a story',
      partial,
      'and then?',
    ]);
  });

  it('stops after tools.max_steps rounds and says so', async () => {
    const { backend, parts, connected, notices, userSays } = await open({
      model: { capabilities: ['completion', 'tools'] },
      configure: (config) => {
        config.tools.max_steps = 2;
      },
    });
    const call = { toolCalls: [{ function: { name: 'get_time', arguments: {} } }] };
    backend.enqueue(call, call);
    userSays('loop');
    await parts.turns.run(connected);

    expect(backend.requests).toHaveLength(2);
    expect(notices().at(-1)?.text).toBe(
      'Stopped after 2 tool rounds (tools.max_steps). Send a message to continue.',
    );
  });
});
