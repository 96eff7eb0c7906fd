/**
 * Compaction by the chat model continues the chat's own request (`compaction.reuse_cache: auto`),
 * so the server's KV cache holds all of the summarizer's prompt but the message asking for the
 * summary. Measured against the emulator's model of Ollama's runner prefix cache
 * (test/support/emulator-prompt-cache.ts): `prompt_eval_cached_count` of the summarizer requests.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/schema.js';
import { type ChatHarness, startChat } from '../support/compaction-harness.js';
import {
  compactionResponder,
  continuesChat,
  conversationChats,
  factsIn,
  gistOnly,
  isCondenseRequest,
  isContinuation,
  isFollowUpRequest,
  isMissingDetailsRequest,
  keepWhatItIsShown,
  sliceLines,
  summarizerChats,
  writingToLimit,
} from '../support/compaction-summarizer.js';
import type { ChatRequestRecord, Emulator, ScriptedReply } from '../support/emulator.js';
import { startEmulator } from '../support/emulator.js';

const MODELS = [
  { name: 'chat:latest', capabilities: ['completion', 'tools'] },
  { name: 'cheap:latest', capabilities: ['completion'] },
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

/** Text of about `tokens` emulator tokens (4 chars each), with no fact in it. */
function filler(tokens: number): string {
  return 'lorem ipsum '.repeat(Math.ceil(tokens / 3)).trim();
}

/** Chats `turns` turns of `Turn i: FACT-t<i> …` at num_ctx 8192, compacting automatically as it fills. */
async function longChat(
  turns: number,
  configure: (config: Config) => void = () => {},
  numCtx = 8192,
): Promise<ChatHarness> {
  chat = await startChat(emu, { model: 'chat', numCtx, configure });
  for (let i = 1; i <= turns; i++) await chat.say(`Turn ${i}: FACT-t${i} ${filler(250)}`);
  return chat;
}

/** Share of a request's prompt the server evaluated anew (not from its KV cache). */
const evaluatedShare = (req: ChatRequestRecord) =>
  (req.promptEvalCount - req.promptCachedCount) / req.promptEvalCount;

describe('a summarizer that is the chat model', () => {
  it("continues the chat's last request, so the server evaluates at most 10% of its prompt anew at num_ctx 16k (~100% with reuse_cache: off)", async () => {
    emu.respondWith(compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n}.` }) }));
    const h = await longChat(110, undefined, 16384);
    const asks = summarizerChats(emu);
    expect(h.records().length).toBeGreaterThanOrEqual(2);
    expect(asks).toHaveLength(h.records().length);
    console.log(
      'SHARES',
      asks.map((a) => `${a.promptEvalCount - a.promptCachedCount}/${a.promptEvalCount}`).join(' '),
    );
    for (const ask of asks) {
      expect(isContinuation(ask)).toBe(true);
      expect(evaluatedShare(ask)).toBeLessThanOrEqual(0.1);
      // The chat's request it continues: the one just before it, sent the same way.
      const before = emu.chats[emu.chats.indexOf(ask) - 1];
      expect(ask.body.tools).toEqual(before.body.tools);
      expect(ask.body.tools.length).toBeGreaterThan(0);
      expect(ask.body.options).toEqual({ ...before.body.options, num_predict: expect.any(Number) });
      expect(ask.body.messages.slice(0, -1)).toEqual(
        before.body.messages.slice(0, ask.body.messages.length - 1),
      );
      // Ollama has no tool_choice: the field is not sent (a tool call is checked instead).
      expect(ask.body).not.toHaveProperty('tool_choice');
      expect(ask.body.think).toBeUndefined();
    }
    // The chat model was loaded once: no summarizer request reloaded it.
    expect(emu.loads).toBe(1);
    // Folded compaction after compaction: the first turns' facts are all still in the summary.
    const facts = factsIn(h.records().at(-1)!.narrative);
    for (let i = 1; i <= 10; i++) expect(facts).toContain(`FACT-t${i}`);

    // The same chat with the standalone prompt: the server evaluates all of it again.
    chat?.dispose();
    await emu.close();
    emu = await startEmulator({ models: MODELS, tokensPerSecond: Number.POSITIVE_INFINITY });
    emu.respondWith(compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n}.` }) }));
    await longChat(
      110,
      (config) => {
        config.compaction.reuse_cache = 'off';
      },
      16384,
    );
    const standalone = summarizerChats(emu).filter((c) => !isContinuation(c));
    expect(standalone.length).toBeGreaterThanOrEqual(2);
    expect(summarizerChats(emu).some(isContinuation)).toBe(false);
    for (const ask of standalone) expect(evaluatedShare(ask)).toBeGreaterThan(0.9);
  });

  it('its follow-ups on a summary (over the limit, exact details left out) continue the request too: each evaluates at most 10% anew', async () => {
    // The fold's ask gets a reply 2× over the limit (condensed); the condensed one is a gist that drops the details (asked for again).
    emu.respondWith(
      compactionResponder({
        chat: (_req, n) => ({ content: `Reply ${n}.` }),
        summarize: (req) => (isFollowUpRequest(req) ? gistOnly(req) : writingToLimit(2)(req)),
      }),
    );
    const h = await longChat(40, undefined, 8192);
    expect(h.records().length).toBeGreaterThanOrEqual(2);
    const asks = summarizerChats(emu);
    const condense = asks.filter(isCondenseRequest);
    const missing = asks.filter(isMissingDetailsRequest);
    expect(condense.length).toBeGreaterThanOrEqual(h.records().length);
    expect(missing.length).toBeGreaterThanOrEqual(h.records().length);
    for (const ask of [...condense, ...missing]) {
      expect(continuesChat(ask)).toBe(true);
      expect(evaluatedShare(ask)).toBeLessThanOrEqual(0.1);
      // The fold's ask it follows up: the same messages, only the ask's end differs.
      const fold = asks.slice(0, asks.indexOf(ask)).findLast(isContinuation)!;
      expect(ask.body.messages.slice(0, -1)).toEqual(fold.body.messages.slice(0, -1));
      expect(ask.body.tools).toEqual(fold.body.tools);
    }
    // The gist dropped every fact; the details list kept them for the model.
    const system = String(conversationChats(emu).at(-1)!.body.messages[0].content);
    const folded = h.records().at(-1)!.detailsFolded ?? 0;
    const upto = h.records().at(-1)!.upto;
    const planted = Array.from({ length: upto / 2 }, (_, i) => `FACT-t${i + 1}`);
    expect(planted.filter((fact) => !system.includes(fact)).length).toBeLessThanOrEqual(folded);
  });

  // Every compaction: the continued request is judged by the server's count, and a slice that
  // would not fit ends a turn earlier (continuation.ts), rather than going standalone.
  it('at num_ctx 2048 too, where the ask is a large part of the prompt, every compaction continues the chat and evaluates at most 25% anew', async () => {
    emu.respondWith(compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n}.` }) }));
    // Turns under compaction.max_message_chars: none is condensed on its own (a standalone request).
    const h = await startChat(emu, { model: 'chat', numCtx: 2048 });
    chat = h;
    for (let i = 1; i <= 16; i++) await h.say(`Turn ${i}: FACT-t${i} ${filler(150)}`);
    const asks = summarizerChats(emu);
    // Later compactions carry recall's definition too: the budgets leave it to the system
    // message's room, so the tail they keep (and the continued request) is as before it joined.
    expect(h.records().length).toBeGreaterThanOrEqual(3);
    for (const ask of asks) {
      expect(isContinuation(ask)).toBe(true);
      expect(evaluatedShare(ask)).toBeLessThanOrEqual(0.25);
    }
  });

  it('a reply with tool calls counts as a failed attempt: the standalone prompt summarizes, and no tool runs', async () => {
    const calling: ScriptedReply = { toolCalls: [{ name: 'get_time', arguments: {} }] };
    emu.respondWith(
      compactionResponder({
        chat: (_req, n) => ({ content: `Reply ${n}.` }),
        summarize: (req) => (isContinuation(req) ? calling : keepWhatItIsShown(req)),
      }),
    );
    const h = await longChat(24, undefined, 4096);
    expect(h.records().length).toBeGreaterThanOrEqual(1);
    const asks = summarizerChats(emu);
    // Each compaction: the continuation (answered with a tool call), then the standalone prompt.
    expect(asks.map(isContinuation)).toEqual(h.records().flatMap(() => [true, false]));
    expect(h.transcript().some((message) => message.role === 'tool')).toBe(false);
    expect(h.notices().some((notice) => notice.level === 'warning')).toBe(false);
    expect(h.records()[0].narrative).toContain('FACT-t1');
  });

  it('with compaction.model another model, that model gets the standalone prompt, without the chat tools', async () => {
    emu.respondWith(compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n}.` }) }));
    const h = await longChat(
      24,
      (config) => {
        config.compaction.model = 'cheap';
      },
      4096,
    );
    expect(h.records().length).toBeGreaterThanOrEqual(1);
    for (const ask of summarizerChats(emu)) {
      expect(ask.model).toBe('cheap:latest');
      expect(isContinuation(ask)).toBe(false);
      expect(ask.body.tools).toBeUndefined();
    }
  });

  it('a summarizer that forgets the summary above drops its facts from the narrative; the details check keeps them for the model', async () => {
    // Writes only the facts of the slice's messages: what a model does that ignores the system message.
    const forgetful = (req: ChatRequestRecord): ScriptedReply => ({
      content: `Summary. Facts: ${factsIn(sliceLines(req).join('\n')).join(' ')}.`,
    });
    emu.respondWith(
      compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n}.` }), summarize: forgetful }),
    );
    const h = await longChat(40, undefined, 4096);
    const [first, ...later] = h.records();
    expect(later.length).toBeGreaterThanOrEqual(1);
    const continued = summarizerChats(emu).filter(isContinuation);
    expect(continued).toHaveLength(h.records().length);
    // The continuation shows the slice and nothing of the verbatim tail after it.
    continued.forEach((ask, k) => {
      const shown = factsIn(sliceLines(ask).join('\n'));
      const tail = h
        .transcript()
        .slice(h.records()[k].upto)
        .map((m) => m.content)
        .join('\n');
      expect(shown.filter((fact) => factsIn(tail).includes(fact))).toEqual([]);
    });
    // The narrative lost the first summary's facts…
    const latest = factsIn(h.records().at(-1)!.narrative);
    expect(factsIn(first.narrative)).toContain('FACT-t1');
    expect(factsIn(first.narrative).filter((fact) => latest.includes(fact))).toEqual([]);
    // …but the exact details list (checked, not trusted to the model) carries them to it, the oldest
    // past its room folded into a count that says so.
    const system = factsIn(String(conversationChats(emu).at(-1)!.body.messages[0].content));
    const unsent = factsIn(first.narrative).filter((fact) => !system.includes(fact));
    expect(system.length).toBeGreaterThan(0);
    expect(h.records().at(-1)!.detailsFolded ?? 0).toBeGreaterThanOrEqual(unsent.length);
  });
});
