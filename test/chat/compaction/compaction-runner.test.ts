/**
 * The compaction runner's state across commands, in the running app (a ChatController against the
 * Ollama emulator): what `/clear` and `/set num_ctx` change about the next compaction; and its
 * decisions alone, over a scripted backend: when it is due, success, failure, retry, cancel.
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config/schema.js';
import { type ChatHarness, REPORT_LINE, startChat } from '../../support/compaction-harness.js';
import {
  compactionResponder,
  failingSummarizer,
  summarizerChats,
} from '../../support/compaction-summarizer.js';
import { type Emulator, startEmulator } from '../../support/emulator.js';
import { type FakeChat, fakeChat } from '../../support/fake-chat.js';

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

let fake: FakeChat | undefined;
afterEach(() => {
  fake?.dispose();
  fake = undefined;
});

/** A chat in a 4k window (reserve 1k) holding `turns` turns of about 1,250 tokens each. */
async function openWithTurns(
  turns: number,
  interactive = true,
  configure?: (config: Config) => void,
): Promise<FakeChat> {
  fake = await fakeChat({ model: { numCtxParam: 4096 }, interactive, configure });
  addTurns(fake, turns);
  return fake;
}

/**
 * `turns` turns; the newest one long (about 2.2k tokens), the older ones within max_message_chars
 * and small enough together for one summarizer request: each compaction here asks once.
 */
function addTurns({ parts, userSays }: FakeChat, turns: number): void {
  for (let i = 0; i < turns; i++) {
    const size = i === turns - 1 ? 4400 : 980;
    userSays(`Question ${i}: ${'q'.repeat(size)}`);
    parts.conversation.append({ role: 'assistant', content: `Answer ${i}: ${'a'.repeat(size)}` });
  }
}

describe('CompactionRunner over a scripted backend', () => {
  it('is due only once the next request would not leave the reserve free', async () => {
    expect((await openWithTurns(1)).parts.compactions.due()).toBe(false);
    fake?.dispose();
    expect((await openWithTurns(4)).parts.compactions.due()).toBe(true);
  });

  it('summarizes the older turns with the chat model and reports the result', async () => {
    const { backend, parts, notices, store } = await openWithTurns(4);
    backend.enqueue({ content: 'The user asked long questions; each was answered.' });
    await parts.compactions.run('manual', undefined);

    expect(parts.conversation.records).toHaveLength(1);
    const record = parts.conversation.records[0];
    expect(record.narrative).toBe('The user asked long questions; each was answered.');
    expect(parts.conversation.transcript[record.upto].role).toBe('user');
    expect(notices().map((n) => n.level)).toEqual(['success']);
    expect(notices()[0].text).toMatch(/^Compacted \d+ messages: .* tokens \(\d+% → \d+% of 4k\)$/);
    // The summarizer request: the chat's own window (no reload), thinking not asked for.
    expect(backend.requests[0]).toMatchObject({ model: 'fake:latest', options: { num_ctx: 4096 } });
    expect(backend.requests[0].think).toBeUndefined();
    expect(parts.compactions.due()).toBe(false);
    expect(store.get().busy).toBeUndefined();
  });

  it('says so when there is nothing to compact, and asks no model', async () => {
    const { backend, parts, notices } = await openWithTurns(1);
    await parts.compactions.run('manual', undefined);
    expect(notices().map((n) => [n.level, n.text])).toEqual([['info', 'Nothing to compact.']]);
    expect(backend.requests).toHaveLength(0);
  });

  it('after a failed automatic compaction asks to retry, and pauses automatic mode when declined', async () => {
    const { backend, parts, notices, store, until } = await openWithTurns(4);
    backend.enqueue({ fail: 'http', message: 'summarizer down' });
    const running = parts.compactions.run('auto', undefined);
    await until((s) => s.dialog !== undefined);

    expect(store.get().dialog).toMatchObject({ kind: 'retry-compaction', question: 'Retry compaction?' });
    expect(notices().map((n) => [n.level, n.text])).toEqual([
      ['warning', 'Compaction failed: summarizer down'],
    ]);
    parts.dialogs.answer('n');
    await running;

    expect(parts.conversation.records).toHaveLength(0);
    expect(parts.compactions.due()).toBe(false);
    // A manual /compact that succeeds turns automatic mode back on.
    backend.enqueue({ content: 'Short summary.' });
    await parts.compactions.run('manual', undefined);
    expect(parts.conversation.records).toHaveLength(1);
    addTurns(fake!, 4);
    expect(parts.compactions.due()).toBe(true);
  });

  it('a compaction the newest turn alone stands in the way of does not pause automatic mode: it is tried again at the next turn', async () => {
    fake = await fakeChat({ model: { numCtxParam: 4096 }, interactive: true });
    const { backend, parts, notices, userSays } = fake;
    userSays('hi');
    parts.conversation.append({ role: 'assistant', content: 'hello' });
    // About 3.2k tokens: with the reserve (1k) over the 4k window, and kept whole as the newest turn.
    userSays(`Question: ${'q'.repeat(13_000)}`);
    expect(parts.compactions.due()).toBe(true);
    // Longer than the greeting it replaces: the view would not shrink.
    backend.enqueue({ content: 'The user greeted the assistant, who greeted back, warmly and at length.' });
    expect(await parts.compactions.run('auto', undefined)).toBe(false);
    expect(notices().at(-1)?.text).toMatch(
      /^Compaction failed: the summary would not make the context smaller by 5% .* Automatic compaction tries again after the next message\.$/,
    );
    expect(parts.compactions.paused).toBe(false);
    // The same newest turn (a tool loop's next round): not tried again, no summarizer call.
    expect(parts.compactions.due()).toBe(false);
    expect(backend.requests).toHaveLength(1);

    parts.conversation.append({ role: 'assistant', content: 'An answer.' });
    userSays('next question');
    expect(parts.compactions.due()).toBe(true);
    backend.enqueue(...Array.from({ length: 6 }, () => ({ content: 'Summary.' })));
    expect(await parts.compactions.run('auto', undefined)).toBe(true);
    expect(parts.conversation.records).toHaveLength(1);
  });

  it('runs again when the user answers y to the retry question', async () => {
    const { backend, parts, until } = await openWithTurns(4);
    backend.enqueue({ fail: 'http', message: 'summarizer down' }, { content: 'Short summary.' });
    const running = parts.compactions.run('manual', undefined);
    await until((s) => s.dialog !== undefined);
    parts.dialogs.answer('y');
    await running;
    expect(backend.requests).toHaveLength(2);
    expect(parts.conversation.records).toHaveLength(1);
  });

  it('changes nothing when cancelled', async () => {
    const { backend, parts, notices } = await openWithTurns(4);
    backend.enqueue({ hang: true });
    const running = parts.compactions.run('manual', undefined);
    await backend.hanging();
    expect(parts.abort.cancel()).toBe(true);
    await running;
    expect(notices().map((n) => [n.level, n.text])).toEqual([
      ['warning', 'Compaction cancelled; nothing was changed.'],
    ]);
    expect(parts.conversation.records).toHaveLength(0);
  });

  it('cancelled before a message is sent: the message stays unsent and an empty Enter sends it, compacting first', async () => {
    // The standalone prompt, whose requests (three folds of the long turn) are counted below.
    const { backend, parts, notices } = await openWithTurns(4, true, (config) => {
      config.compaction.reuse_cache = 'off';
    });
    backend.enqueue({ hang: true });
    const sending = parts.sender.send('next question');
    await backend.hanging();
    expect(parts.abort.cancel()).toBe(true);
    await sending;
    // Only the summarizer was asked: the message did not go out to be cut by the server.
    expect(backend.requests).toHaveLength(1);
    // Said once, after the message it was for.
    expect(notices().map((n) => n.text)).toEqual([
      'Compaction cancelled; nothing was changed, and the message was not sent.',
      'Press Enter on an empty prompt to send it (compacting first).',
    ]);
    expect(parts.conversation.transcript.at(-1)).toMatchObject({ role: 'user', content: 'next question' });
    expect(parts.sender.hasRetry).toBe(true);

    // The newest turn before it is long: the summary is folded in three requests, then the chat's.
    const summaries = Array.from({ length: 3 }, () => ({ content: 'Short summary.' }));
    backend.enqueue(...summaries, { content: 'The answer.' });
    await parts.sender.retry();
    expect(backend.requests).toHaveLength(5);
    expect(parts.conversation.records).toHaveLength(1);
    expect(backend.requests[4].messages.at(-1)).toMatchObject({ role: 'user', content: 'next question' });
    expect(parts.conversation.transcript.filter((m) => m.content === 'next question')).toHaveLength(1);
    expect(parts.sender.hasRetry).toBe(false);
  });

  it('says once, in a chat, that a 2k window scaled the budgets; a one-shot does not say it', async () => {
    const scaled =
      /^num_ctx 2k is small for the configured budgets; scaled to reserve \S+, keep_recent \S+, summary \S+\.$/;
    for (const interactive of [true, false]) {
      fake?.dispose();
      fake = await fakeChat({ model: { numCtxParam: 2048 }, interactive });
      fake.backend.enqueue({ content: 'One.' }, { content: 'Two.' });
      await fake.parts.sender.send('first');
      await fake.parts.sender.send('second');
      expect(fake.backend.requests).toHaveLength(2);
      expect(fake.notices().filter((n) => scaled.test(n.text))).toHaveLength(interactive ? 1 : 0);
    }
  });

  it('is an error, not a question, in one-shot mode', async () => {
    fake = await openWithTurns(4, false);
    fake.backend.enqueue({ fail: 'http', message: 'summarizer down' });
    await fake.parts.compactions.run('auto', undefined);
    expect(fake.notices().map((n) => [n.level, n.text])).toEqual([
      ['error', 'Compaction failed: summarizer down'],
    ]);
    expect(fake.store.get().dialog).toBeUndefined();
  });
});
