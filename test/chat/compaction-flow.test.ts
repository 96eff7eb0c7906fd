/**
 * Compaction in the running app: a ChatController against the Ollama emulator (no terminal).
 * Covers /compact, automatic compaction (pre-flight and after a reply), the summarizer request,
 * retry after failure, re-compaction, long chats in a small window, /summary and /context.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NoticeItem } from '../../src/chat/state/display-items.js';
import { resolveBudgets } from '../../src/compaction/budgets.js';
import { REPLY_ROOM_FACTOR } from '../../src/compaction/chunking.js';
import { CUT_OFF_NOTICE } from '../../src/compaction/summarizer-prompt.js';
import { SUMMARY_HEADER } from '../../src/compaction/summary.js';
import type { Config } from '../../src/config/schema.js';
import { formatTokens } from '../../src/conversation/format-tokens.js';
import { NOTICE_STYLE } from '../../src/ui/notice-style.js';
import {
  type ChatHarness,
  type ChatHarnessOptions,
  REPORT_LINE,
  startChat,
} from '../support/compaction-harness.js';
import {
  compactionResponder,
  conversationChats,
  factsIn,
  failingSummarizer,
  isCondenseRequest,
  keepWhatItIsShown,
  sliceLines,
  summarizerChats,
  summarizerPrompt,
  writingToLimit,
} from '../support/compaction-summarizer.js';
import {
  type ChatRequestRecord,
  countToolTokens,
  type Emulator,
  type ReplyFault,
  startEmulator,
} from '../support/emulator.js';

const MODELS = [
  { name: 'chat:latest', capabilities: ['completion', 'tools'] },
  { name: 'qwen3:latest', family: 'qwen3', capabilities: ['completion', 'tools', 'thinking'] },
  { name: 'small:latest', numCtxParam: 2048 },
];

let emu: Emulator;
let chat: ChatHarness | undefined;

beforeEach(async () => {
  emu = await startEmulator({ models: MODELS, tokensPerSecond: Number.POSITIVE_INFINITY });
});

afterEach(async () => {
  chat?.dispose();
  chat = undefined;
  await emu.close();
});

/** Starts the chat under test (disposed after each test). */
async function open(options: Partial<ChatHarnessOptions> = {}): Promise<ChatHarness> {
  chat = await startChat(emu, { model: 'chat', numCtx: 4096, ...options });
  return chat;
}

/** Config: compaction only on /compact. */
function autoOff(config: Config): void {
  config.compaction.auto = false;
}

/** Text of about `tokens` emulator tokens (4 chars each), with no fact in it. */
function filler(tokens: number): string {
  return 'lorem ipsum '.repeat(Math.ceil(tokens / 3)).trim();
}

/** Chat replies `Reply 1.`, `Reply 2.`…: short and distinct, so expected views can be written out. */
const numberedReplies = (_req: ChatRequestRecord, n: number) => ({ content: `Reply ${n}.` });

/** Like numberedReplies, but the first reply calls get_time (so a tool entry gets summarized). */
const toolCallFirst = (req: ChatRequestRecord, n: number) =>
  n === 1 ? { toolCalls: [{ name: 'get_time', arguments: {} }] } : numberedReplies(req, n);

/** Sends `count` turns `Turn i: FACT-t<i> <filler>`, numbered from `from`. */
async function chatTurns(h: ChatHarness, count: number, tokens = 250, from = 1): Promise<void> {
  for (let i = from; i < from + count; i++) await h.say(`Turn ${i}: FACT-t${i} ${filler(tokens)}`);
}

const lastNotice = (h: ChatHarness) => h.notices().at(-1);
/** A notice as the screen draws it: its level's symbol, then the text. */
const shown = (notice: NoticeItem) => `${NOTICE_STYLE[notice.level].symbol} ${notice.text}`;
const noticeTexts = (h: ChatHarness) => h.notices().map((n) => n.text);

/** The conversation request whose last user message starts with `prefix`. */
function chatSending(prefix: string): ChatRequestRecord {
  const found = emu.chats.find((c) => c.body.messages.at(-1)?.content?.startsWith(prefix));
  if (!found) throw new Error(`no chat request ends with a user message starting ${prefix}`);
  return found;
}

/** Submits `text`; answers a retry dialog with `answer` if one opens; waits for the end. */
async function sayAnswering(h: ChatHarness, text: string, answer: string): Promise<boolean> {
  let asked = false;
  let answering = false;
  const stop = h.controller.store.subscribe(() => {
    if (!h.controller.store.get().dialog || answering) return;
    asked = true;
    answering = true;
    // The dialog is shown before it can take an answer: answer once the current step is done.
    queueMicrotask(() => {
      answering = false;
      h.controller.answerDialog(answer);
    });
  });
  h.controller.submit(text);
  await h.controller.idle();
  stop();
  return asked;
}

describe('/compact', () => {
  it('reports one line; the next request is the summary in the system message, then the verbatim tail', async () => {
    emu.respondWith(compactionResponder({ chat: numberedReplies }));
    const h = await open({ configure: autoOff });
    await chatTurns(h, 8);
    const beforeCompact = conversationChats(emu).at(-1)!;

    await h.say('/compact');

    const report = lastNotice(h)!;
    expect(report.level).toBe('success');
    const match = REPORT_LINE.exec(report.text);
    expect(match, report.text).not.toBeNull();
    const [, n, before, after, percentBefore, percentAfter, window] = match!;
    const summarized = Number(n);
    expect(window).toBe('4k');
    expect(Number(percentAfter)).toBeLessThan(Number(percentBefore));
    const record = h.records()[0];
    expect([before, after]).toEqual([formatTokens(record.tokensBefore), formatTokens(record.tokensAfter)]);
    // The summarizer (the chat model) continued the chat's last request: its N oldest messages
    // exactly as they were sent, then the one message asking for the summary.
    const ask = summarizerChats(emu)[0];
    expect(ask.body.messages.slice(0, -1)).toEqual(beforeCompact.body.messages.slice(0, summarized));
    const lines = sliceLines(ask);
    expect(lines).toHaveLength(summarized);
    expect(lines[0]).toMatch(/^user: Turn 1: FACT-t1 lorem/);
    expect(lines[1]).toBe('assistant: Reply 1.');
    expect(summarized % 2).toBe(0);
    expect(summarized).toBeGreaterThanOrEqual(2);
    expect(summarized).toBeLessThan(16);

    await h.say('next');
    const messages = conversationChats(emu).at(-1)!.body.messages;
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain(SUMMARY_HEADER);
    expect(messages[0].content).toContain(record.narrative);
    expect(messages.filter((m: { role: string }) => m.role === 'system')).toHaveLength(1);
    expect(messages[1].role).toBe('user');
    expect(messages[1].content).toMatch(new RegExp(`^Turn ${summarized / 2 + 1}: `));
    expect(messages.slice(1)).toEqual([
      ...beforeCompact.body.messages.slice(summarized),
      { role: 'assistant', content: 'Reply 8.' },
      { role: 'user', content: 'next' },
    ]);
    expect(emu.chats.every((c) => !c.truncated)).toBe(true);
  });

  it('puts /compact instructions into that one summarizer prompt only', async () => {
    emu.respondWith(compactionResponder());
    const h = await open({ configure: autoOff });
    await chatTurns(h, 8);
    await h.say('/compact focus on the database schema');
    await chatTurns(h, 8, 250, 9);
    await h.say('/compact');

    const [focused, plain] = summarizerChats(emu);
    expect(summarizerPrompt(focused)).toContain(
      'Focus for this summary, from the user: focus on the database schema',
    );
    expect(summarizerPrompt(plain)).not.toContain('database schema');
    expect(summarizerPrompt(plain)).not.toContain('Focus for this summary');
    expect(noticeTexts(h).filter((t) => REPORT_LINE.test(t))).toHaveLength(2);
  });

  it('says "Nothing to compact." on a one-turn chat and asks no summarizer', async () => {
    const h = await open();
    await h.say('hello');
    await h.say('/compact');
    expect(lastNotice(h)).toMatchObject({ level: 'info', text: 'Nothing to compact.' });
    expect(summarizerChats(emu)).toHaveLength(0);
    expect(h.records()).toHaveLength(0);
  });
});

describe('automatic compaction', () => {
  it('runs before a send that would not fit, and the send waits for it', async () => {
    emu.respondWith(compactionResponder({ chat: numberedReplies }));
    const h = await open();
    await chatTurns(h, 8, 250);
    // Guard: so far nothing was due (after-reply checks stayed quiet).
    expect(summarizerChats(emu)).toHaveLength(0);

    const big = `Big question: ${filler(1000)}`;
    await h.say(big);

    // One compaction (its slice, whole messages, may take more than one summarizer chunk).
    expect(h.records()).toHaveLength(1);
    const asks = summarizerChats(emu);
    const summarizerAt = emu.chats.indexOf(asks[asks.length - 1]);
    const bigAt = emu.chats.indexOf(chatSending('Big question'));
    expect(summarizerAt).toBe(bigAt - 1);
    // The summarizer saw the older turns, not the message waiting to be sent.
    for (const ask of asks) expect(summarizerPrompt(ask)).not.toContain('Big question');
    const sent = emu.chats[bigAt].body.messages;
    expect(sent[0].content).toContain(SUMMARY_HEADER);
    expect(sent[1].role).toBe('user');
    // On screen: the report comes before the message it made room for.
    const items = h.items();
    const reportAt = items.findIndex((i) => i.kind === 'notice' && REPORT_LINE.test(i.text));
    const userAt = items.findIndex((i) => i.kind === 'user' && i.text === big);
    expect(reportAt).toBeGreaterThan(-1);
    expect(reportAt).toBeLessThan(userAt);
    expect(emu.chats.every((c) => !c.truncated)).toBe(true);
  });

  it('summarizes the turn before a large message when that message needs its room', async () => {
    emu.respondWith(compactionResponder({ chat: numberedReplies }));
    const h = await open({ numCtx: 2048 });
    await chatTurns(h, 2, 100);
    for (let i = 3; i <= 6; i++) await h.say(`Turn ${i}: ${filler(700)}`);

    // Each large message is sent alone after the summary, leaving the reserve for the reply.
    for (let i = 4; i <= 6; i++) {
      const sent = chatSending(`Turn ${i}:`);
      // The budgets leave room for the tool definitions every request carries.
      const { reserve } = resolveBudgets(2048, h.config.compaction, countToolTokens(sent.body.tools));
      expect(sent.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
      expect(sent.promptTokens + reserve).toBeLessThanOrEqual(2048);
      // The turn before went to the summarizer whole: condensed on its own (it is long), then folded.
      const before = emu.chats.slice(
        emu.chats.indexOf(chatSending(`Turn ${i - 1}:`)) + 1,
        emu.chats.indexOf(sent),
      );
      const shown = before
        .filter((c) => summarizerChats(emu).includes(c))
        .flatMap(sliceLines)
        .join('\n');
      expect(shown).toContain(`Turn ${i - 1}: ${filler(700)}`);
      expect(sliceLines(before[before.length - 1]).join('\n')).toMatch(
        /user: \(a 2\.\d kB message, condensed\)/,
      );
    }
    expect(emu.chats.every((c) => !c.truncated)).toBe(true);
  });

  it('runs after a reply that fills the window; a message typed meanwhile is sent after it', async () => {
    emu.respondWith(
      compactionResponder({
        chat: (_req, n) =>
          n === 7 ? { content: `Long story. ${filler(1700)}` } : { content: `Reply ${n}.` },
        summarize: (req) => ({ ...keepWhatItIsShown(req), firstByteDelayMs: 300 }),
      }),
    );
    const h = await open();
    await chatTurns(h, 6, 250);
    expect(summarizerChats(emu)).toHaveLength(0);

    h.controller.submit('Tell me a long story');
    await h.until(() => h.controller.store.get().busy?.startsWith('compacting') ?? false);
    // The reply is complete and on screen while compaction runs in the background.
    expect(h.items().some((i) => i.kind === 'assistant' && i.markdown.startsWith('Long story.'))).toBe(true);
    h.controller.submit('Typed while compacting');
    expect(h.controller.store.get().queued.map((q) => q.text)).toEqual(['Typed while compacting']);
    await h.controller.idle();

    const summarizerAt = emu.chats.indexOf(summarizerChats(emu)[0]);
    expect(summarizerAt).toBe(emu.chats.indexOf(chatSending('Tell me a long story')) + 1);
    const typed = chatSending('Typed while compacting');
    expect(emu.chats.indexOf(typed)).toBe(summarizerAt + 1);
    expect(typed.body.messages[0].content).toContain(SUMMARY_HEADER);
    const reportAt = h.items().findIndex((i) => i.kind === 'notice' && REPORT_LINE.test(i.text));
    const typedAt = h.items().findIndex((i) => i.kind === 'user' && i.text === 'Typed while compacting');
    expect(reportAt).toBeGreaterThan(-1);
    expect(reportAt).toBeLessThan(typedAt);
  });

  it('asks the chat model with its own num_ctx (no reload), think:false and num_predict = twice the summary budget (an overshoot arrives whole)', async () => {
    emu.respondWith(compactionResponder());
    const h = await open({ model: 'qwen3', configure: autoOff });
    await chatTurns(h, 8);
    expect(emu.loads).toBe(1);
    await h.say('/compact');
    await h.say('after');

    const [summarizer] = summarizerChats(emu);
    const budgets = resolveBudgets(4096, h.config.compaction);
    expect(summarizer.body.model).toBe('qwen3');
    expect(summarizer.body.think).toBe(false);
    expect(summarizer.body.options).toEqual({
      num_ctx: 4096,
      num_predict: REPLY_ROOM_FACTOR * budgets.summary,
    });
    expect(conversationChats(emu).every((c) => c.body.options.num_ctx === 4096)).toBe(true);
    expect(emu.loads).toBe(1);
  });

  it('does not send think to a summarizer model that cannot think', async () => {
    emu.respondWith(compactionResponder());
    const h = await open({ configure: autoOff });
    await chatTurns(h, 8);
    await h.say('/compact');
    expect(summarizerChats(emu)[0].body).not.toHaveProperty('think');
  });

  it('summarizes with compaction.model when one is set, at that model’s window', async () => {
    emu.respondWith(compactionResponder());
    const h = await open({
      configure: (c) => {
        c.compaction.auto = false;
        c.compaction.model = 'small';
      },
    });
    await chatTurns(h, 8, 150);
    await h.say('/compact');
    await h.say('after');

    const summarizers = summarizerChats(emu);
    expect(summarizers.length).toBeGreaterThanOrEqual(1);
    for (const s of summarizers) {
      expect(s.model).toBe('small:latest');
      expect(s.body.options.num_ctx).toBe(2048);
      expect(s.truncated).toBe(false);
    }
    expect(conversationChats(emu).every((c) => c.model === 'chat:latest')).toBe(true);
    expect(h.records()[0].model).toBe('small');
    expect(REPORT_LINE.test(noticeTexts(h).find((t) => t.startsWith('Compacted')) ?? '')).toBe(true);
    await h.say('/summary');
    expect(lastNotice(h)!.text).toContain('(by small,');
    // One load for each model, none for a changed window.
    expect(emu.loads).toBe(2);
  });
});

describe('a message too large for the window even after compaction', () => {
  it('"y" sends it anyway: an older Ollama (no truncate field) cuts it and the app says so', async () => {
    await emu.close();
    emu = await startEmulator({
      models: MODELS,
      tokensPerSecond: Number.POSITIVE_INFINITY,
      ignoresTruncate: true,
    });
    emu.respondWith(compactionResponder({ chat: numberedReplies }));
    const h = await open({ numCtx: 2048 });
    const asked = await sayAnswering(h, `Huge: ${filler(3000)}`, 'y');
    expect(asked).toBe(true);
    const sent = chatSending('Huge:');
    expect(sent.truncated).toBe(true);
    expect(noticeTexts(h).some((t) => t.startsWith('This message is about'))).toBe(true);
    expect(noticeTexts(h).filter((t) => t.startsWith('Sent anyway: the request is about'))).toHaveLength(1);
    // Said once, when it was sent: not again when the server's count comes back.
    expect(noticeTexts(h).some((t) => t.startsWith('Ollama truncated the prompt'))).toBe(false);
    expect(noticeTexts(h).some((t) => t.startsWith('Compaction failed'))).toBe(false);
    expect(h.transcript().find((m) => m.role === 'user')?.oversized).toBe(true);
  });

  it('"y" sends it anyway to a current Ollama too: that one request lets the server cut it (truncate: true), the next is refused rather than cut again', async () => {
    emu.respondWith(compactionResponder({ chat: numberedReplies }));
    const h = await open({ numCtx: 2048 });
    await sayAnswering(h, `Huge: ${filler(3000)}`, 'y');
    const sent = chatSending('Huge:');
    expect(sent.body.truncate).toBe(true);
    expect(sent).toMatchObject({ truncated: true });
    expect(sent.error).toBeUndefined();
    expect(noticeTexts(h).filter((t) => t.startsWith('Sent anyway:'))).toHaveLength(1);
    expect(noticeTexts(h).some((t) => /still does not fit|Compaction failed|paused/.test(t))).toBe(false);
    await h.say('and now?');
    const next = chatSending('and now?');
    expect(next.body.truncate).toBe(false);
    expect(next).toMatchObject({ truncated: false });
    expect(next.error).toBeUndefined();
  });

  it('a /compact right after it says why the context is still over the window', async () => {
    emu.respondWith(compactionResponder({ chat: numberedReplies }));
    const h = await open({ numCtx: 2048 });
    for (let turn = 1; turn <= 3; turn++) await h.say(`Turn ${turn}: ${filler(150)}`);
    await sayAnswering(h, `Huge: ${filler(3000)}`, 'y');
    await h.say('/compact');
    expect(lastNotice(h)!.text).toMatch(
      /^Compacted \d+ messages: .* \(\d+% → 1\d\d% of 2k\); the message sent anyway stays whole, cut by Ollama, until the next turn compacts it$/,
    );
  });

  it('is an error, sending nothing, when nobody can answer (one-shot behaviour)', async () => {
    const h = await open({ numCtx: 2048, interactive: false });
    await h.say(`Huge: ${filler(3000)}`);
    expect(conversationChats(emu)).toHaveLength(0);
    expect(h.transcript()).toHaveLength(0);
    const errors = h.notices().filter((n) => n.level === 'error');
    expect(errors.map((n) => n.text)).toEqual([
      expect.stringMatching(
        /^This message is about 3k tokens; even after compaction the request carrying it would be about 3\.6k tokens, more than num_ctx 2k\. Sent as it is, Ollama would cut it without notice\.$/,
      ),
      expect.stringMatching(
        /^Not sent\. Shorten the prompt, or give the model a larger window with --num-ctx <tokens> \(chat takes up to 128k\)\.$/,
      ),
    ]);
  });
});

describe('when the summarizer fails', () => {
  const faults: [string, Extract<ReplyFault, { error: string }>][] = [
    ['an HTTP error', { kind: 'http', status: 500, error: 'summarizer crashed' }],
    ['an error line mid-stream', { kind: 'error-line', afterChunks: 1, error: 'runner died mid-summary' }],
  ];

  it.each(faults)(
    'shows the failure after %s, asks to retry, and "y" retries and succeeds',
    async (_name, fault) => {
      emu.respondWith(compactionResponder({ summarize: failingSummarizer(1, fault) }));
      const h = await open({ configure: autoOff });
      await chatTurns(h, 6);

      h.controller.submit('/compact');
      const dialog = await h.dialog();
      expect(dialog).toMatchObject({
        kind: 'retry-compaction',
        question: 'Retry compaction?',
        choices: 'y/n',
      });
      const failure = lastNotice(h)!;
      expect(failure.level).toBe('warning');
      expect(shown(failure)).toMatch(/^⚠ Compaction failed: /);
      expect(failure.text).toContain(fault.error);
      expect(h.records()).toHaveLength(0);

      h.controller.answerDialog('y');
      await h.controller.idle();
      expect(summarizerChats(emu)).toHaveLength(2);
      expect(lastNotice(h)!.text).toMatch(REPORT_LINE);
      expect(h.records()).toHaveLength(1);
      expect(h.controller.store.get().dialog).toBeUndefined();
    },
  );

  it('"n" leaves the transcript, the records and the next request exactly as before', async () => {
    emu.respondWith(
      compactionResponder({
        chat: numberedReplies,
        summarize: failingSummarizer(1, { kind: 'http', status: 500, error: 'summarizer crashed' }),
      }),
    );
    const h = await open({ configure: autoOff });
    await chatTurns(h, 6);
    const transcript = structuredClone(h.transcript());
    const lastRequest = conversationChats(emu).at(-1)!.body.messages;
    const usedBefore = h.controller.store.get().used;

    h.controller.submit('/compact');
    await h.dialog();
    h.controller.answerDialog('n');
    await h.controller.idle();

    expect(summarizerChats(emu)).toHaveLength(1);
    expect(h.controller.store.get().dialog).toBeUndefined();
    expect(h.transcript()).toEqual(transcript);
    expect(h.records()).toHaveLength(0);
    expect(h.controller.store.get().used).toBe(usedBefore);
    await h.say('/summary');
    expect(lastNotice(h)!.text).toMatch(/^No summary yet/);

    await h.say('next');
    expect(conversationChats(emu).at(-1)!.body.messages).toEqual([
      ...lastRequest,
      { role: 'assistant', content: 'Reply 6.' },
      { role: 'user', content: 'next' },
    ]);
  });

  it('pauses automatic compaction after an automatic failure until a manual /compact succeeds', async () => {
    emu.respondWith(
      compactionResponder({
        chat: numberedReplies,
        summarize: failingSummarizer(1, { kind: 'http', status: 503, error: 'server busy' }),
      }),
    );
    const h = await open();
    let turn = 0;
    let asked = false;
    while (!asked && turn < 30) {
      turn += 1;
      asked = await sayAnswering(h, `Turn ${turn}: ${filler(250)}`, 'n');
    }
    expect(asked).toBe(true);
    expect(h.notices().map(shown)).toContainEqual(
      expect.stringMatching(/^⚠ Compaction failed: .*server busy/),
    );
    expect(summarizerChats(emu)).toHaveLength(1);
    expect(h.records()).toHaveLength(0);

    // Still over the trigger, but paused: three more turns, no summarizer call and no dialog.
    for (let i = 0; i < 3; i++) {
      turn += 1;
      expect(await sayAnswering(h, `Turn ${turn}: ${filler(60)}`, 'n')).toBe(false);
    }
    expect(summarizerChats(emu)).toHaveLength(1);
    const { reserve } = resolveBudgets(4096, h.config.compaction);
    expect(h.controller.store.get().used! + reserve).toBeGreaterThan(4096);

    await h.say('/compact');
    expect(lastNotice(h)!.text).toMatch(REPORT_LINE);
    expect(h.records()).toHaveLength(1);
    const afterManual = summarizerChats(emu).length;

    // Automatic mode is back: the window fills again and compaction follows without a command.
    const manual = h.items().length;
    for (let i = 0; i < 30 && h.records().length === 1; i++) {
      turn += 1;
      await h.say(`Turn ${turn}: ${filler(250)}`);
    }
    expect(h.records()).toHaveLength(2);
    expect(summarizerChats(emu).length).toBeGreaterThan(afterManual);
    expect(
      h
        .items()
        .slice(manual)
        .some((i) => i.kind === 'notice' && REPORT_LINE.test(i.text)),
    ).toBe(true);
    expect(emu.chats.every((c) => !c.truncated)).toBe(true);
  });

  it('while paused, a context grown past num_ctx is refused by Ollama, never cut, and the message is kept', async () => {
    emu.respondWith(
      compactionResponder({
        chat: numberedReplies,
        summarize: failingSummarizer(Number.POSITIVE_INFINITY, {
          kind: 'http',
          status: 503,
          error: 'server busy',
        }),
      }),
    );
    const h = await open();
    const refused =
      /does not fit num_ctx 4k, so Ollama refused it rather than cut it\. Your message is kept\.$/;
    let turn = 0;
    while (!noticeTexts(h).some((t) => refused.test(t)) && turn < 40) {
      turn += 1;
      await sayAnswering(h, `Turn ${turn}: ${filler(250)}`, 'n');
    }
    expect(noticeTexts(h)).toContain(
      'Automatic compaction is paused until a /compact succeeds. Until then the context keeps growing, and a request past num_ctx is refused by Ollama (never cut): your message is kept to send again.',
    );
    expect(noticeTexts(h).some((t) => refused.test(t))).toBe(true);
    expect(emu.chats.some((c) => c.error?.status === 400 && c.promptTokens > 4096)).toBe(true);
    expect(emu.chats.every((c) => !c.truncated)).toBe(true);
    expect(h.transcript().at(-1)).toMatchObject({ role: 'user', content: `Turn ${turn}: ${filler(250)}` });
  });

  it('is an error without a dialog when nobody can answer (one-shot behaviour)', async () => {
    emu.respondWith(
      compactionResponder({
        summarize: failingSummarizer(Number.POSITIVE_INFINITY, {
          kind: 'http',
          status: 500,
          error: 'summarizer crashed',
        }),
      }),
    );
    const h = await open({ interactive: false, configure: autoOff });
    await chatTurns(h, 6);
    let dialogs = 0;
    h.controller.store.subscribe(() => {
      if (h.controller.store.get().dialog) dialogs += 1;
    });
    await h.say('/compact');
    expect(lastNotice(h)).toMatchObject({ level: 'error' });
    expect(lastNotice(h)!.text).toMatch(/^Compaction failed: .*summarizer crashed/);
    expect(dialogs).toBe(0);
    expect(summarizerChats(emu)).toHaveLength(1);
    expect(h.records()).toHaveLength(0);
  });
});

describe('re-compaction', () => {
  it('folds the previous narrative into the next summarizer prompt (the standalone prompt)', async () => {
    emu.respondWith(compactionResponder());
    const h = await open({
      configure: (config) => {
        autoOff(config);
        config.compaction.reuse_cache = 'off';
      },
    });
    await chatTurns(h, 8);
    await h.say('/compact');
    const first = h.records()[0];
    await chatTurns(h, 8, 250, 9);
    await h.say('/compact');

    const second = summarizerChats(emu)[1];
    const prompt = summarizerPrompt(second);
    expect(prompt).toContain(`<summary>\n${first.narrative}\n</summary>`);
    expect(prompt.indexOf('<summary>')).toBeLessThan(prompt.indexOf('<messages>'));
    // The slice starts where the previous verbatim tail began: nothing is summarized twice.
    expect(sliceLines(second)[0]).toMatch(new RegExp(`^\\[${first.upto}\\] user: `));
    const latest = h.records()[1];
    expect(latest.upto).toBeGreaterThan(first.upto);
    expect(factsIn(latest.narrative)).toEqual(expect.arrayContaining(factsIn(first.narrative)));
  });
});

describe('long chats in a small window', () => {
  it('a scripted 200-turn chat at num_ctx 2048 ends with zero silent truncations', async () => {
    emu.respondWith(
      compactionResponder({
        chat: (_req, n) => ({ content: `Answer ${n}. ${filler((n * 37) % 90)}` }),
      }),
    );
    const h = await open({ numCtx: 2048 });
    for (let i = 1; i <= 200; i++) {
      // Mostly small turns; every 17th a message larger than the reserve, which only pre-flight catches.
      const size = i % 17 === 0 ? 900 : (i * 53) % 320;
      expect(await sayAnswering(h, `Turn ${i}: ${filler(size)}`, 'n')).toBe(false);
    }

    const conversation = conversationChats(emu);
    expect(conversation.length).toBe(200);
    expect(emu.chats.filter((c) => c.truncated)).toEqual([]);
    expect(emu.chats.every((c) => c.numCtx === 2048 && !c.error)).toBe(true);
    expect(summarizerChats(emu).length).toBeGreaterThanOrEqual(10);
    expect(noticeTexts(h).filter((t) => REPORT_LINE.test(t)).length).toBeGreaterThanOrEqual(10);
    expect(noticeTexts(h).filter((t) => /truncated|Compaction failed/.test(t))).toEqual([]);
  });

  it('facts planted in early turns still reach the model after five compactions', async () => {
    emu.respondWith(compactionResponder({ chat: numberedReplies }));
    const h = await open({ numCtx: 2048 });
    await h.say('My name is Ada; remember FACT-name_ada.');
    await h.say('The deploy key lives in /etc/keys/FACT-deploy_key.');
    await h.say('We ship on 2031-04-01, FACT-ship_20310401.');
    const planted = ['FACT-name_ada', 'FACT-deploy_key', 'FACT-ship_20310401'];
    let turn = 0;
    while (h.records().length < 5 && turn < 200) {
      turn += 1;
      await h.say(`Filler turn ${turn}: ${filler(200)}`);
    }
    expect(h.records().length).toBeGreaterThanOrEqual(5);
    await h.say('What do you remember?');

    const last = chatSending('What do you remember?');
    expect(last.truncated).toBe(false);
    const seen = last.keptMessages;
    // Only through the summary: none of the planting messages is in the verbatim tail.
    expect(seen.some((m) => m.role !== 'system' && factsIn(String(m.content)).length > 0)).toBe(false);
    expect(seen[0].role).toBe('system');
    expect(factsIn(String(seen[0].content))).toEqual(expect.arrayContaining(planted));
  });

  it('facts planted in user messages and in tool outputs all survive ten compactions at num_ctx 2048', async () => {
    const h = await open({ numCtx: 2048 });
    const planted: string[] = [];
    // Every third turn the model reads a file whose fact it never repeats.
    emu.respondWith(
      compactionResponder({
        chat: (req, n) => {
          const last = req.body.messages.at(-1);
          const file = /read (f\d+\.txt)/.exec(String(last.content))?.[1];
          if (last.role === 'user' && file)
            return { toolCalls: [{ name: 'read_file', arguments: { path: file } }] };
          return { content: `Reply ${n}.` };
        },
      }),
    );
    let turn = 0;
    while (h.records().length < 10 && turn < 120) {
      turn += 1;
      planted.push(`FACT-u${turn}`);
      let ask = '';
      if (turn % 3 === 0) {
        writeFileSync(join(h.cwd, `f${turn}.txt`), `config value FACT-t${turn}\n`);
        planted.push(`FACT-t${turn}`);
        ask = ` Please read f${turn}.txt.`;
      }
      await h.say(`Turn ${turn}: FACT-u${turn}.${ask} ${filler(150)}`);
    }
    expect(h.records().length).toBeGreaterThanOrEqual(10);
    await h.say('What do you remember?');

    const last = chatSending('What do you remember?');
    expect(emu.chats.filter((c) => c.truncated)).toEqual([]);
    const seen = new Set(last.keptMessages.flatMap((m) => factsIn(String(m.content))));
    const kept = planted.filter((fact) => seen.has(fact));
    expect(kept).toEqual(planted);
    expect(noticeTexts(h).filter((t) => /Compaction failed|cut/.test(t))).toEqual([]);
  });

  /** Plants a fact in each user message until ten compactions ran; returns the facts planted. */
  async function plantFacts(h: ChatHarness): Promise<string[]> {
    const planted: string[] = [];
    for (let turn = 1; h.records().length < 10 && turn <= 150; turn++) {
      planted.push(`FACT-u${turn}`);
      await h.say(`Turn ${turn}: remember FACT-u${turn}. ${filler(120)}`);
    }
    expect(h.records().length).toBeGreaterThanOrEqual(10);
    await h.say('What do you remember?');
    return planted;
  }

  it('a summarizer overshooting its limit 2× is condensed, then cut: every fact is kept or its loss reported', async () => {
    emu.respondWith(compactionResponder({ chat: numberedReplies, summarize: writingToLimit(2) }));
    const h = await open({ numCtx: 2048 });
    const planted = await plantFacts(h);

    // Each over-long summary was sent back once to be condensed.
    expect(summarizerChats(emu).filter(isCondenseRequest).length).toBeGreaterThanOrEqual(10);
    const seen = new Set(
      chatSending('What do you remember?').keptMessages.flatMap((m) => factsIn(String(m.content))),
    );
    const lost = planted.filter((fact) => !seen.has(fact));
    const cutRecords = h.records().filter((r) => r.cut);
    const reportedCut = new Set(cutRecords.flatMap((r) => factsIn(r.cut!.text)));
    expect(lost.filter((fact) => !reportedCut.has(fact))).toEqual([]);
    // Every cut is said in its report line, with the tokens dropped.
    const cutReports = noticeTexts(h)
      .map((t) => REPORT_LINE.exec(t))
      .filter((m) => m?.[7] !== undefined);
    expect(cutReports.map((m) => Number(m![7]))).toEqual(cutRecords.map((r) => r.cut!.tokens));
  });

  it('a summarizer overshooting past num_predict is cut off by the server: asked again, and every lost end is reported', async () => {
    emu.respondWith(compactionResponder({ chat: numberedReplies, summarize: writingToLimit(4) }));
    const h = await open({ numCtx: 2048 });
    await plantFacts(h);

    // Each reply the server cut off was asked for again, told so.
    expect(
      summarizerChats(emu).filter((c) => summarizerPrompt(c).includes(CUT_OFF_NOTICE)).length,
    ).toBeGreaterThanOrEqual(10);
    // A fact the summarizer was shown that is neither kept nor in the cut text was lost with a
    // reply's end: that compaction's record says so.
    const transcript = h.transcript();
    let missingBefore = new Set<string>();
    for (const record of h.records()) {
      const shown = transcript.slice(0, record.upto).flatMap((m) => factsIn(m.content));
      const accounted = new Set([...factsIn(record.narrative), ...factsIn(record.cut?.text ?? '')]);
      const unaccounted = shown.filter((fact) => !accounted.has(fact) && !missingBefore.has(fact));
      if (unaccounted.length) expect(record.cut?.endsLost).toBeGreaterThan(0);
      missingBefore = new Set(shown.filter((fact) => !factsIn(record.narrative).includes(fact)));
    }
    // …and its report line says it, as a warning.
    const lostEnds = h.records().filter((r) => r.cut?.endsLost);
    expect(lostEnds.length).toBeGreaterThan(0);
    const reports = h.notices().filter((n) => /ran past (its|their) length limit/.test(n.text));
    expect(reports.length).toBe(lostEnds.length);
    for (const report of reports) {
      expect(report.text).toMatch(REPORT_LINE);
      expect(report.level).toBe('warning');
    }
  });

  it('a summarizer cut off once that obeys when asked again keeps every fact, with no cut', async () => {
    const overshooting = writingToLimit(4);
    const obedient = writingToLimit(1);
    emu.respondWith(
      compactionResponder({
        chat: numberedReplies,
        summarize: (req) =>
          summarizerPrompt(req).includes(CUT_OFF_NOTICE) ? obedient(req) : overshooting(req),
      }),
    );
    const h = await open({ numCtx: 2048 });
    const planted = await plantFacts(h);

    expect(
      summarizerChats(emu).filter((c) => summarizerPrompt(c).includes(CUT_OFF_NOTICE)).length,
    ).toBeGreaterThanOrEqual(10);
    expect(h.records().filter((r) => r.cut)).toEqual([]);
    expect(noticeTexts(h).filter((t) => t.includes('summary cut'))).toEqual([]);
    const seen = new Set(
      chatSending('What do you remember?').keptMessages.flatMap((m) => factsIn(String(m.content))),
    );
    expect(planted.filter((fact) => !seen.has(fact))).toEqual([]);
  });

  it('a summarizer writing exactly up to the stated limit is never cut, and keeps every fact', async () => {
    emu.respondWith(compactionResponder({ chat: numberedReplies, summarize: writingToLimit(1) }));
    const h = await open({ numCtx: 2048 });
    const planted = await plantFacts(h);

    expect(h.records().filter((r) => r.cut)).toEqual([]);
    expect(noticeTexts(h).filter((t) => t.includes('summary cut'))).toEqual([]);
    const seen = new Set(
      chatSending('What do you remember?').keptMessages.flatMap((m) => factsIn(String(m.content))),
    );
    expect(planted.filter((fact) => !seen.has(fact))).toEqual([]);
  });

  it('with compaction.auto off, an older Ollama (no truncate field) truncates and the app says so', async () => {
    await emu.close();
    emu = await startEmulator({
      models: MODELS,
      tokensPerSecond: Number.POSITIVE_INFINITY,
      ignoresTruncate: true,
    });
    emu.respondWith(compactionResponder({ chat: numberedReplies }));
    const h = await open({ numCtx: 2048, configure: autoOff });
    for (let i = 1; i <= 12 && !emu.chats.some((c) => c.truncated); i++) {
      await h.say(`Turn ${i}: ${filler(300)}`);
    }
    const truncatedAt = emu.chats.findIndex((c) => c.truncated);
    expect(truncatedAt).toBeGreaterThan(0);
    expect(summarizerChats(emu)).toHaveLength(0);
    const warning = lastNotice(h)!;
    expect(warning.level).toBe('warning');
    expect(shown(warning)).toMatch(/^⚠ Ollama truncated the prompt: /);
    expect(warning.text).toContain('num_ctx 2k');
  });
});

describe('/summary and /context', () => {
  it('/summary shows the narrative and the tool calls in full', async () => {
    emu.respondWith(compactionResponder({ chat: toolCallFirst }));
    const h = await open({ configure: autoOff });
    await h.say('/summary');
    expect(lastNotice(h)!.text).toBe(
      'No summary yet: the conversation has not been compacted. /compact does it now.',
    );
    await chatTurns(h, 8);
    expect(h.items().some((i) => i.kind === 'tool' && i.name === 'get_time')).toBe(true);
    await h.say('/compact');
    await h.say('/summary');

    const record = h.records()[0];
    const lines = lastNotice(h)!.text.split('\n');
    expect(lines[0]).toBe(`Summary of messages 1–${record.upto} (by chat, just now):`);
    expect(lines).toContain(record.narrative);
    expect(record.narrative).toContain('FACT-t1');
    expect(lines).toContain('Tool calls (1):');
    expect(lines.at(-1)).toMatch(/^ {2}- .*time \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  });

  it('/context shows where the window goes, before and after compaction', async () => {
    emu.respondWith(compactionResponder({ chat: toolCallFirst }));
    const h = await open({
      configure: (c) => {
        c.compaction.auto = false;
        c.system = 'You are a terse assistant.';
      },
    });
    await chatTurns(h, 8);
    const read = async () => {
      await h.say('/context');
      const [header, ...rows] = lastNotice(h)!.text.split('\n');
      const parsed = new Map<string, { tokens: string; percent: number }>();
      for (const row of rows) {
        const m = /^ {2}(\S+(?: \S+)?)\s+(\S+)\s+(\d+)%\s+[█·]{20}$/.exec(row);
        expect(m, row).not.toBeNull();
        parsed.set(m![1], { tokens: m![2], percent: Number(m![3]) });
      }
      return { header, parsed };
    };

    const before = await read();
    expect(before.header).toBe('Context window: 4k tokens (from --num-ctx)');
    expect([...before.parsed.keys()]).toEqual([
      'system',
      'summary',
      'tool entries',
      'tool definitions',
      'verbatim tail',
      'reserve',
      'free',
    ]);
    expect(before.parsed.get('summary')!.tokens).toBe('0');
    expect(before.parsed.get('tool entries')!.tokens).toBe('0');
    expect(before.parsed.get('system')!.tokens).not.toBe('0');
    expect(before.parsed.get('reserve')).toEqual({ tokens: '1k', percent: 25 });

    await h.say('/compact');
    const after = await read();
    expect(after.parsed.get('summary')!.tokens).not.toBe('0');
    expect(after.parsed.get('tool entries')!.tokens).not.toBe('0');
    expect(after.parsed.get('system')).toEqual(before.parsed.get('system'));
    expect(after.parsed.get('verbatim tail')!.percent).toBeLessThan(
      before.parsed.get('verbatim tail')!.percent,
    );
    expect(after.parsed.get('free')!.percent).toBeGreaterThan(before.parsed.get('free')!.percent);
  });
});
