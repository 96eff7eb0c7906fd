/**
 * The compaction runner's state across commands, in the running app (a ChatController against the
 * Ollama emulator): what `/clear` and `/set num_ctx` change about the next compaction.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChatHarness, REPORT_LINE, startChat } from '../support/compaction-harness.js';
import { compactionResponder, failingSummarizer, summarizerChats } from '../support/compaction-summarizer.js';
import { type Emulator, startEmulator } from '../support/emulator.js';

let emu: Emulator;
let chat: ChatHarness | undefined;

beforeEach(async () => {
  emu = await startEmulator({
    models: [{ name: 'chat:latest', capabilities: ['completion'] }],
    tokensPerSecond: Number.POSITIVE_INFINITY,
  });
});

afterEach(async () => {
  chat?.dispose();
  chat = undefined;
  await emu.close();
});

/** Text of about `tokens` emulator tokens (4 chars each). */
function filler(tokens: number): string {
  return 'lorem ipsum '.repeat(Math.ceil(tokens / 3)).trim();
}

/** Submits `text`, answering `n` to any dialog that opens; true when one did. */
async function sayDeclining(h: ChatHarness, text: string): Promise<boolean> {
  let asked = false;
  const stop = h.controller.store.subscribe(() => {
    if (!h.controller.store.get().dialog || asked) return;
    asked = true;
    queueMicrotask(() => h.controller.answerDialog('n'));
  });
  h.controller.submit(text);
  await h.controller.idle();
  stop();
  return asked;
}

describe('compaction runner', () => {
  it('/clear lifts the pause after an automatic failure: the new chat is compacted again when it fills', async () => {
    emu.respondWith(
      compactionResponder({
        summarize: failingSummarizer(1, { kind: 'http', status: 503, error: 'server busy' }),
      }),
    );
    const h = await startChat(emu, { model: 'chat', numCtx: 4096 });
    chat = h;
    let asked = false;
    for (let turn = 1; !asked && turn <= 30; turn++)
      asked = await sayDeclining(h, `Turn ${turn}: ${filler(250)}`);
    expect(asked).toBe(true);
    expect(summarizerChats(emu)).toHaveLength(1);

    await h.say('/clear');
    // A new conversation fills the window again: automatic compaction runs, without a /compact.
    for (let turn = 1; h.records().length === 0 && turn <= 30; turn++) {
      expect(await sayDeclining(h, `New ${turn}: ${filler(250)}`)).toBe(false);
    }
    expect(summarizerChats(emu)).toHaveLength(2);
    expect(h.records()).toHaveLength(1);
    expect(h.notices().some((n) => REPORT_LINE.test(n.text))).toBe(true);
    expect(emu.chats.every((c) => !c.truncated)).toBe(true);
  });

  it('after /set num_ctx, the chat model summarizes with the num_ctx in force, not the old one', async () => {
    emu.respondWith(compactionResponder());
    const h = await startChat(emu, {
      model: 'chat',
      numCtx: 4096,
      configure: (c) => {
        c.compaction.auto = false;
      },
    });
    chat = h;
    for (let turn = 1; turn <= 6; turn++) await h.say(`Turn ${turn}: ${filler(200)}`);
    await h.say('/compact');
    expect(summarizerChats(emu).map((c) => c.body.options.num_ctx)).toEqual([4096]);

    await h.say('/set num_ctx 8192');
    for (let turn = 7; turn <= 12; turn++) await h.say(`Turn ${turn}: ${filler(200)}`);
    await h.say('/compact');
    expect(summarizerChats(emu).map((c) => c.body.options.num_ctx)).toEqual([4096, 8192]);
    // The same window as the chat's own requests: the model is not reloaded for the summary.
    expect(emu.chats.at(-2)!.body.options.num_ctx).toBe(8192);
  });
});
