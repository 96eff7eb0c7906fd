/**
 * The model connector in the running app (a ChatController against the Ollama emulator): the
 * window `/set num_ctx` puts in force is the one every later request carries.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChatHarness, startChat } from '../../support/compaction-harness.js';
import { type Emulator, startEmulator } from '../../support/emulator.js';

let emu: Emulator;
let chat: ChatHarness | undefined;

beforeEach(async () => {
  emu = await startEmulator({
    models: [{ name: 'chat:latest', capabilities: ['completion'], trainedContext: 32768 }],
    tokensPerSecond: Number.POSITIVE_INFINITY,
  });
});

afterEach(async () => {
  chat?.dispose();
  chat = undefined;
  await emu.close();
});

describe('/set num_ctx', () => {
  it('over the trained length is capped in the request itself, not only in the message', async () => {
    chat = await startChat(emu, { model: 'chat', numCtx: 4096 });
    await chat.say('/set num_ctx 999999999');
    expect(chat.notices().map((n) => n.text)).toContainEqual(
      expect.stringMatching(/trained on 32\.?\d*k tokens; num_ctx capped/),
    );
    await chat.say('hello');
    expect(emu.chats.at(-1)!.body.options.num_ctx).toBe(32768);
    expect(chat.controller.store.get().numCtx).toBe(32768);
  });

  it('within the trained length is sent as given', async () => {
    chat = await startChat(emu, { model: 'chat', numCtx: 4096 });
    await chat.say('/set num_ctx 16384');
    await chat.say('hello');
    expect(emu.chats.at(-1)!.body.options.num_ctx).toBe(16384);
  });
});
