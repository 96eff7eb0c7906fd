/** `compaction.unload_after`: a summarizer that is another model is freed after each compaction. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChatHarness, startChat } from '../../support/compaction-harness.js';
import { type Emulator, startEmulator } from '../../support/emulator.js';

let emu: Emulator;
let chat: ChatHarness | undefined;

beforeEach(async () => {
  emu = await startEmulator({
    models: [{ name: 'chat:latest' }, { name: 'cheap:latest' }],
    tokensPerSecond: Number.POSITIVE_INFINITY,
  });
});

afterEach(async () => {
  chat?.dispose();
  chat = undefined;
  await emu.close();
});

async function compactWith(unloadAfter: boolean): Promise<void> {
  chat = await startChat(emu, {
    model: 'chat',
    configure: (config) => {
      config.compaction.model = 'cheap';
      config.compaction.unload_after = unloadAfter;
    },
  });
  for (const n of [1, 2, 3]) await chat.say(`Message ${n}: ${'words '.repeat(30)}`);
  await chat.say('/compact');
  expect(chat.records()).toHaveLength(1);
}

const unloads = () => emu.loadRequests.filter((c) => c.body.keep_alive === 0).map((c) => c.model);

describe('compaction.unload_after', () => {
  it('unloads the summarizer model after a compaction, leaving the chat model loaded', async () => {
    await compactWith(true);
    await expect.poll(unloads).toEqual(['cheap:latest']);
    const loaded = ((await (await fetch(`${emu.url}/api/ps`)).json()) as { models: { name: string }[] })
      .models;
    expect(loaded.map((m) => m.name)).toEqual(['chat:latest']);
  });

  it('leaves it loaded by default', async () => {
    await compactWith(false);
    expect(unloads()).toEqual([]);
  });
});
