/**
 * `truncate: false` in the running chat: every request says it, and when Ollama refuses a prompt
 * as over num_ctx the chat compacts and sends once more; if that is refused too, it says so and
 * keeps the message for a retry. A ChatController against the emulator.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChatHarness, startChat } from '../support/compaction-harness.js';
import { compactionResponder, conversationChats, summarizerChats } from '../support/compaction-summarizer.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { INPUT_TOO_LONG } from '../support/emulator-chat.js';

let emu: Emulator;
let chat: ChatHarness | undefined;

beforeEach(async () => {
  emu = await startEmulator({ models: [{ name: 'chat:latest' }], tokensPerSecond: Number.POSITIVE_INFINITY });
});

afterEach(async () => {
  chat?.dispose();
  chat = undefined;
  await emu.close();
});

const refusal = { fault: { kind: 'http' as const, status: 400, error: INPUT_TOO_LONG } };

/** A chat with a few turns behind it, so there is something to compact. */
async function chatWithHistory(
  configure?: Parameters<typeof startChat>[1]['configure'],
): Promise<ChatHarness> {
  chat = await startChat(emu, { model: 'chat', configure });
  for (const n of [1, 2, 3, 4]) await chat.say(`Message ${n}: ${'some words '.repeat(20)}`);
  return chat;
}

describe('a prompt the server refuses as over num_ctx', () => {
  it('sends truncate:false and the configured keep_alive with every chat and summarizer request', async () => {
    const harness = await chatWithHistory((config) => {
      config.keep_alive = '45m';
    });
    await harness.say('/compact');
    expect(summarizerChats(emu)).toHaveLength(1);
    for (const request of emu.chats)
      expect(request.body).toMatchObject({ truncate: false, keep_alive: '45m' });
  });

  it('compacts and sends again once, then shows the reply', async () => {
    const harness = await chatWithHistory();
    const before = conversationChats(emu).length;
    emu.respondWith(compactionResponder({ chat: (_req, call) => (call === 1 ? refusal : undefined) }));
    await harness.say('The last one.');
    const texts = harness.notices().map((n) => n.text);
    expect(texts).toContainEqual(
      expect.stringMatching(/^Ollama refused the prompt: it does not fit num_ctx 8k\. Compacting/),
    );
    expect(texts).toContainEqual(expect.stringMatching(/^Compacted \d+ messages/));
    expect(harness.records()).toHaveLength(1);
    const chats = conversationChats(emu).slice(before);
    expect(chats.map((c) => c.error?.status)).toEqual([400, undefined]);
    // The request sent again is the compacted one: shorter, and it ends with the same message.
    expect(chats[1].body.messages.length).toBeLessThan(chats[0].body.messages.length);
    expect(chats[1].body.messages.at(-1).content).toBe('The last one.');
    expect(harness.transcript().at(-1)).toMatchObject({ role: 'assistant', content: 'Echo: The last one.' });
  });

  it('says so when it still does not fit, keeps the message, and an empty Enter sends it again', async () => {
    const harness = await chatWithHistory();
    emu.respondWith(compactionResponder({ chat: () => refusal }));
    await harness.say('Too long still.');
    const texts = harness.notices().map((n) => n.text);
    expect(texts).toContainEqual(
      'The prompt still does not fit num_ctx 8k, so Ollama refused it rather than cut it. Your message is kept.',
    );
    expect(texts.filter((t) => t.startsWith('Ollama refused the prompt'))).toHaveLength(1);
    expect(harness.transcript().at(-1)).toMatchObject({ role: 'user', content: 'Too long still.' });
    emu.respondWith(undefined);
    await harness.say('');
    expect(harness.transcript().at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Echo: Too long still.',
    });
  });
});
