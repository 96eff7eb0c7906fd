import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ask, SummarizerReply } from '../../src/compaction/ask.js';
import { type BudgetSpecs, type Budgets, resolveBudgets } from '../../src/compaction/budgets.js';
import { REPLY_ROOM_FACTOR } from '../../src/compaction/chunking.js';
import { type CompactionInput, compactConversation } from '../../src/compaction/compactor.js';
import { collectDetails, MAX_DETAILS_PER_MESSAGE } from '../../src/compaction/details.js';
import { IN_PARTS_NOTE } from '../../src/compaction/long-messages.js';
import { buildModelView, toWireMessage } from '../../src/compaction/model-view.js';
import { planCompaction } from '../../src/compaction/plan.js';
import { formatCompactionReport } from '../../src/compaction/report.js';
import {
  CONDENSE_OPENING,
  CONTINUATION_OPENING,
  DEFAULT_SUMMARIZER_RULES,
  DETAILS_OPENING,
  MISSING_DETAILS_OPENING,
  OVER_LIMIT_NOTICE,
} from '../../src/compaction/summarizer-prompt.js';
import { detailsListCost, renderSummarySection, toolLogRoom } from '../../src/compaction/summary.js';
import { collectToolEntries, toolEntryBullet } from '../../src/compaction/tool-entries.js';
import { isCompactionDue } from '../../src/compaction/trigger.js';
import type { CompactionRecord } from '../../src/conversation/compaction-record.js';
import type { Message } from '../../src/conversation/message.js';
import {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTokens,
} from '../../src/conversation/token-estimate.js';
import { lastTurnStart } from '../../src/conversation/turns.js';
import {
  buildTranscript,
  compactionRecord,
  deepFreeze,
  type TurnSpec,
  text,
  transcriptArb,
  turnArb,
} from '../conversation/fixtures.js';
import { ELEVEN } from './eleven-details.js';

/** A reply the server finished (not cut off at num_predict). */
const finished = (text: string): SummarizerReply => ({ text, cutOff: false });

const budgets: Budgets = { reserve: 1638, keepRecent: 2457, summary: 819, numCtx: 8192, scaled: false };
const specs: BudgetSpecs = {
  reserve: { ratio: 0.2, min_tokens: 256 },
  keep_recent: { ratio: 0.3, min_tokens: 256 },
  summary: { ratio: 0.1, min_tokens: 128 },
};

const turn = (i: number): TurnSpec => ({
  user: `Question ${i}: ${text(400, 'q')}`,
  steps: [
    { tools: [{ name: 'read_file', output: text(2000, 'o'), summary: `read file${i}.ts (80 lines)` }] },
    { reply: `Answer ${i}: ${text(400, 'a')}`, thinking: 'hidden reasoning' },
  ],
});
const transcript = buildTranscript(Array.from({ length: 10 }, (_, i) => turn(i)));

function clock(): () => Date {
  let calls = 0;
  return () => new Date(Date.UTC(2026, 0, 1) + 250 * calls++);
}

function input(overrides: Partial<CompactionInput> = {}): CompactionInput {
  return {
    transcript,
    budgets,
    system: 'You are helpful.',
    ask: async () => finished('The user asked ten questions about files.'),
    summarizerNumCtx: 8192,
    model: 'qwen3',
    maxMessageChars: 2000,
    charsPerToken: 4,
    now: clock(),
    ...overrides,
  };
}

const sectionTokens = (system: string | undefined, record: CompactionRecord, cpt: number) =>
  estimateMessagesTokens(buildModelView({ system, record, transcript: [] }), cpt) -
  estimateMessagesTokens(buildModelView({ system, transcript: [] }), cpt);

describe('compactConversation', () => {
  it('summarizes the older turns into a record and reports the figures', async () => {
    const requests: Parameters<Ask>[0][] = [];
    const outcome = await compactConversation(
      input({
        ask: async (request) => {
          requests.push(request);
          return finished('The user asked ten questions about files.');
        },
      }),
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const estimate = (m: Message) => estimateMessageTokens(toWireMessage(m), 4);
    const plan = planCompaction({ transcript, budgets, estimate })!;
    const tokensBefore = estimateMessagesTokens(
      buildModelView({ system: 'You are helpful.', transcript }),
      4,
    );
    expect(outcome.record).toEqual({
      upto: plan.upto,
      narrative: 'The user asked ten questions about files.',
      toolEntries: collectToolEntries(plan.slice),
      model: 'qwen3',
      at: '2026-01-01T00:00:00.000Z',
      tokensBefore,
      tokensAfter: estimateMessagesTokens(
        buildModelView({ system: 'You are helpful.', record: outcome.record, transcript }),
        4,
      ),
    });
    expect(outcome.record.toolEntries[0]).toBe('read_file: read file0.ts (80 lines)');
    expect(outcome.result).toMatchObject({
      messagesSummarized: plan.upto,
      tokensBefore,
      tokensAfter: outcome.record.tokensAfter,
      numCtx: 8192,
      model: 'qwen3',
    });
    expect(outcome.record.tokensAfter).toBeLessThan(tokensBefore * 0.95);
    expect(requests).toHaveLength(1);
    expect(requests[0].system).toBe(DEFAULT_SUMMARIZER_RULES);
    expect(requests[0].numPredict).toBe(REPLY_ROOM_FACTOR * 819);
    expect(requests[0].prompt).toContain('[0] user: Question 0');
    expect(requests[0].prompt).toContain('[2] tool: read_file: read file0.ts (80 lines)');
    expect(requests[0].prompt).not.toContain('hidden reasoning');
    expect(formatCompactionReport(outcome.result)).toMatch(
      /^Compacted \d+ messages: .* tokens \(\d+% → \d+% of 8k\)$/,
    );
  });

  it('never mutates its inputs, on success or failure', async () => {
    const frozen = deepFreeze(structuredClone(transcript));
    const previous = deepFreeze<CompactionRecord>({
      upto: 4,
      narrative: 'Earlier.',
      toolEntries: ['read_file: x'],
      model: 'qwen3',
      at: '',
      tokensBefore: 1,
      tokensAfter: 1,
    });
    const frozenBudgets = deepFreeze({ ...budgets });
    const before = structuredClone({ frozen, previous, frozenBudgets });
    const ok = await compactConversation(input({ transcript: frozen, previous, budgets: frozenBudgets }));
    expect(ok.ok).toBe(true);
    const failed = await compactConversation(
      input({
        transcript: frozen,
        previous,
        budgets: frozenBudgets,
        ask: async () => {
          throw new Error('server down');
        },
      }),
    );
    expect(failed).toEqual({ ok: false, reason: 'failed', message: 'server down', retryable: true });
    expect({ frozen, previous, frozenBudgets }).toEqual(before);
  });

  it('fails on an empty summary', async () => {
    expect(await compactConversation(input({ ask: async () => finished('   ') }))).toEqual({
      ok: false,
      reason: 'failed',
      message: 'the summarizer returned an empty summary',
      retryable: true,
    });
  });

  it('fails when the summary would not shrink the view by 5%', async () => {
    const small = buildTranscript([
      { user: 'hi', steps: [{ reply: 'hello' }] },
      { user: 'bye', steps: [{ reply: 'bye' }] },
    ]);
    const outcome = await compactConversation(input({ transcript: small }));
    expect(outcome.ok).toBe(false);
    if (outcome.ok || outcome.reason !== 'failed') throw new Error('expected a failure');
    expect(outcome.message).toMatch(
      /^the summary would not make the context smaller by 5% \(needed ≤ [\d,]+ tokens, got [\d,]+\)$/,
    );
    // Another run would summarize the same slice to the same size: not offered as retryable.
    expect(outcome.retryable).toBe(false);
  });

  it('reports and records a summary cut to its budget, and a reply whose end the server cut off', async () => {
    const long = `FACT-1 ${'plain words '.repeat(600)}FACT-2`;
    const cut = await compactConversation(input({ ask: async () => finished(long) }));
    if (!cut.ok) throw new Error('expected success');
    expect(cut.record.narrative).toContain('FACT-1');
    expect(cut.record.narrative).toContain('FACT-2');
    expect(cut.record.cut?.text).toContain('plain words');
    expect(cut.result.cutTokens).toBe(cut.record.cut?.tokens);
    expect(cut.result.cutTokens).toBeGreaterThan(0);
    expect(cut.result.endsLost).toBe(0);

    const cutOff = await compactConversation(
      input({ ask: async () => ({ text: 'FACT-1 and then', cutOff: true }) }),
    );
    if (!cutOff.ok) throw new Error('expected success');
    expect(cutOff.record.cut).toEqual({ text: '', tokens: 0, endsLost: 1 });
    expect(cutOff.result).toMatchObject({ cutTokens: 0, endsLost: 1 });

    const whole = await compactConversation(input());
    if (!whole.ok) throw new Error('expected success');
    expect('cut' in whole.record).toBe(false);
    expect(whole.result).toMatchObject({ cutTokens: 0, endsLost: 0 });
  });

  it('fails, not retryable, when the summary budget leaves no room for a summary', async () => {
    expect(await compactConversation(input({ budgets: { ...budgets, summary: 30 } }))).toEqual({
      ok: false,
      reason: 'failed',
      message: 'the summary budget (30 tokens) leaves no room for a summary',
      retryable: false,
    });
  });

  it("counts the tool definitions every request carries in both figures, and reports the app's own before", async () => {
    const plain = await compactConversation(input());
    const withTools = await compactConversation(input({ fixedTokens: 300 }));
    if (!plain.ok || !withTools.ok) throw new Error('expected success');
    expect(withTools.result.tokensBefore).toBe(plain.result.tokensBefore + 300);
    expect(withTools.result.tokensAfter).toBe(plain.result.tokensAfter + 300);
    const used = await compactConversation(input({ usedBefore: 12_345 }));
    if (!used.ok) throw new Error('expected success');
    expect(used.result.tokensBefore).toBe(12_345);
    expect(used.record.tokensBefore).toBe(12_345);
    expect(used.result.tokensAfter).toBe(plain.result.tokensAfter);
  });

  it('takes less than the 5% for a request over its budget when it folds all but the newest turn, or makes it fit', async () => {
    // A short turn, then a newest turn (kept whole) that alone fills the room: folding the short one
    // shrinks the view by about 1%, all this request can get.
    const crowded = buildTranscript([
      { user: `Question: ${text(400, 'q')}`, steps: [{ reply: 'Answer.' }] },
      { user: `Big: ${text(26_000, 'b')}`, steps: [] },
    ]);
    const summary = finished('Asked a question.');
    const before = estimateMessagesTokens(
      buildModelView({ system: 'You are helpful.', transcript: crowded }),
      4,
    );
    expect(before + budgets.reserve).toBeGreaterThan(budgets.numCtx);
    const folded = await compactConversation(input({ transcript: crowded, ask: async () => summary }));
    if (!folded.ok) throw new Error(`expected success, got ${JSON.stringify(folded)}`);
    expect(folded.record.upto).toBe(lastTurnStart(crowded));
    expect(folded.result.tokensAfter).toBeGreaterThan(before * 0.95);
    expect(folded.result.tokensAfter).toBeLessThan(before);

    // The same request within its budget: the loop guard holds, nothing was due.
    const roomy = await compactConversation(
      input({ transcript: crowded, ask: async () => summary, budgets: { ...budgets, numCtx: 16_384 } }),
    );
    expect(roomy).toMatchObject({ ok: false, reason: 'failed', retryable: false, nextTurn: true });
  });

  it('counts the request as the app sends it: the tool output of the newest turn shortened to fit, before and after', async () => {
    const reading = buildTranscript([
      { user: `Question: ${text(4000, 'q')}`, steps: [{ reply: 'Answer.' }] },
      {
        user: 'read big.log',
        steps: [
          { tools: [{ name: 'read_file', output: text(60_000, 'o'), summary: 'read big.log (900 lines)' }] },
        ],
      },
    ]);
    const fit = { numCtx: budgets.numCtx, reserve: budgets.reserve, charsPerToken: 4 };
    const sent = (record?: CompactionRecord) =>
      estimateMessagesTokens(
        buildModelView({ system: 'You are helpful.', record, transcript: reading, fit }),
        4,
      );
    const outcome = await compactConversation(
      input({ transcript: reading, fit, ask: async () => finished('Asked a long question.') }),
    );
    if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome)}`);
    // As sent, not with the 60 kB output whole (about 15k tokens, which no request carries).
    expect(outcome.result.tokensBefore).toBe(sent());
    expect(outcome.result.tokensBefore).toBeLessThan(budgets.numCtx);
    expect(outcome.result.tokensAfter).toBe(sent(outcome.record));
  });

  it('the loop guard compares estimates: a stale, larger server count does not let a useless summary through', async () => {
    const small = buildTranscript([
      { user: 'hi', steps: [{ reply: 'hello' }] },
      { user: 'bye', steps: [{ reply: 'bye' }] },
    ]);
    const outcome = await compactConversation(input({ transcript: small, usedBefore: 100_000 }));
    expect(outcome).toMatchObject({ ok: false, reason: 'failed', retryable: false });
  });

  it('has nothing to compact with a single turn, or nothing after the boundary', async () => {
    expect(await compactConversation(input({ transcript: transcript.slice(0, 4) }))).toEqual({
      ok: false,
      reason: 'nothing-to-compact',
    });
    const previous = compactionRecord(36);
    expect(await compactConversation(input({ previous }))).toEqual({
      ok: false,
      reason: 'nothing-to-compact',
    });
  });

  it('folds the previous narrative into the next prompt and carries its tool entries', async () => {
    const previous: CompactionRecord = {
      upto: 8,
      narrative: 'PREVIOUS FACT: the user is Ana from Porto.',
      toolEntries: ['… 3 earlier tool calls (read_file ×3)'],
      model: 'qwen3',
      at: '',
      tokensBefore: 0,
      tokensAfter: 0,
    };
    const prompts: string[] = [];
    const outcome = await compactConversation(
      input({
        previous,
        focus: 'the file names',
        rules: 'Custom rules.',
        ask: async ({ prompt, system }) => {
          prompts.push(prompt);
          expect(system).toBe('Custom rules.');
          return finished('Ana from Porto read many files.');
        },
      }),
    );
    expect(prompts[0]).toContain('PREVIOUS FACT: the user is Ana from Porto.');
    expect(prompts[0]).toContain('Focus for this summary, from the user: the file names');
    expect(prompts[0]).toMatch(/^[\s\S]*\[8\] user: Question 2/);
    expect(prompts[0]).not.toContain('[7]');
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.record.upto).toBeGreaterThan(8);
    expect(outcome.record.toolEntries[0]).toBe('… 3 earlier tool calls (read_file ×3)');
    expect(outcome.record.toolEntries[1]).toBe('read_file: read file2.ts (80 lines)');
  });

  it('estimates the view with the tool content the app sends', async () => {
    const toolContent = () => 'capped';
    const outcome = await compactConversation(input({ toolContent }));
    if (!outcome.ok) throw new Error('expected success');
    expect(outcome.result.tokensBefore).toBe(
      estimateMessagesTokens(buildModelView({ system: 'You are helpful.', transcript, toolContent }), 4),
    );
  });

  it('keeps every invariant for random conversations, budgets and summary lengths', async () => {
    let fitted = 0;
    let succeeded = 0;
    await fc.assert(
      fc.asyncProperty(
        transcriptArb,
        fc.integer({ min: 2048, max: 16_384 }),
        fc.nat(3000),
        fc.nat(30_000),
        fc.double({ min: 2, max: 6, noNaN: true }),
        async (messages, numCtx, systemChars, replyChars, cpt) => {
          const b = resolveBudgets(numCtx, specs);
          const system = systemChars ? text(systemChars, 's') : undefined;
          const frozen = deepFreeze(structuredClone(messages));
          const outcome = await compactConversation({
            ...input(),
            transcript: frozen,
            budgets: b,
            system,
            charsPerToken: cpt,
            summarizerNumCtx: numCtx,
            ask: async () => finished('Fact. '.repeat(Math.ceil(replyChars / 6))),
            details: { share: 0.3 },
          });
          expect(frozen).toEqual(messages);
          if (!outcome.ok) {
            if (outcome.reason === 'failed') expect(outcome.message.length).toBeGreaterThan(0);
            return;
          }
          const { record } = outcome;
          succeeded++;
          expect(record.upto).toBeGreaterThan(0);
          expect(messages[record.upto].role).toBe('user');
          expect(record.upto).toBeLessThanOrEqual(lastTurnStart(messages));
          expect(sectionTokens(system, record, cpt)).toBeLessThanOrEqual(b.summary);
          const estimate = (s: string) => estimateTokens(s, cpt);
          const toolCost = record.toolEntries.reduce((sum, e) => sum + estimate(toolEntryBullet(e)), 0);
          // The tool log takes what the narrative left of the section (its share, or more).
          expect(toolCost).toBeLessThanOrEqual(
            toolLogRoom(b.summary, record.narrative, estimate, detailsListCost(record, estimate)),
          );
          // The loop guard's 5%, unless the request was over its budget and now fits or has all but
          // its newest turn folded; never larger.
          const fitsBudget = (tokens: number) => tokens + b.reserve <= numCtx;
          expect(record.tokensAfter).toBeLessThan(record.tokensBefore);
          if (record.tokensAfter > record.tokensBefore * 0.95) {
            expect(fitsBudget(record.tokensBefore)).toBe(false);
            expect(fitsBudget(record.tokensAfter) || record.upto === lastTurnStart(messages)).toBe(true);
          }
          // Fits numCtx − reserve whenever the system prompt, the summary and the newest turn (or keepRecent) do.
          const sys = estimateMessagesTokens(buildModelView({ system, transcript: [] }), cpt);
          const newest = estimateMessagesTokens(messages.slice(lastTurnStart(messages)), cpt);
          if (sys + b.summary + Math.max(newest, b.keepRecent) <= numCtx - b.reserve) {
            fitted++;
            expect(record.tokensAfter).toBeLessThanOrEqual(numCtx - b.reserve);
          }
        },
      ),
      { numRuns: 150 },
    );
    expect(succeeded).toBeGreaterThan(30);
    expect(fitted).toBeGreaterThan(10);
  });

  it('keeps a long conversation within the window, compaction after compaction', async () => {
    let compactions = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnArb, { minLength: 10, maxLength: 40 }),
        fc.array(fc.nat(20_000), { minLength: 1, maxLength: 8 }),
        async (turns, replyLengths) => {
          const b = resolveBudgets(4096, specs);
          let record: CompactionRecord | undefined;
          let asks = 0;
          const ask: Ask = async ({ prompt }) => {
            // A long message condensed on its own is summarized apart, before the fold.
            if (record && !prompt.includes(IN_PARTS_NOTE))
              expect(prompt).toContain(record.narrative.slice(0, 40));
            return finished('Fact. '.repeat(Math.ceil(replyLengths[asks++ % replyLengths.length] / 6) + 1));
          };
          for (let n = 1; n <= turns.length; n++) {
            const messages = buildTranscript(turns.slice(0, n));
            const used = estimateMessagesTokens(
              buildModelView({ system: 'sys', record, transcript: messages }),
            );
            if (!isCompactionDue({ used, reserve: b.reserve, numCtx: b.numCtx })) continue;
            const outcome = await compactConversation({
              ...input(),
              transcript: messages,
              previous: record,
              budgets: b,
              system: 'sys',
              ask,
              summarizerNumCtx: 4096,
            });
            if (!outcome.ok) continue;
            expect(outcome.record.upto).toBeGreaterThan(record?.upto ?? 0);
            record = outcome.record;
            compactions++;
            const newest = estimateMessagesTokens(messages.slice(lastTurnStart(messages)));
            if (newest <= b.keepRecent) expect(record.tokensAfter).toBeLessThanOrEqual(b.numCtx - b.reserve);
          }
        },
      ),
      { numRuns: 30 },
    );
    expect(compactions).toBeGreaterThan(30);
  });
});

describe('compactConversation continuing the chat request', () => {
  /** The chat request as far as `upto`, as the app gives it: the view of the slice, nothing shortened. */
  const continuationOf =
    (shortened: readonly Message[] = []) =>
    (upto: number) => ({
      messages: buildModelView({ system: 'You are helpful.', transcript, end: upto }),
      shortened,
    });

  it('asks once, continuing the chat request up to the boundary, with the ask as its one new message', async () => {
    const requests: Parameters<Ask>[0][] = [];
    const outcome = await compactConversation(
      input({
        continuation: continuationOf(),
        ask: async (request) => {
          requests.push(request);
          return finished('Ten questions about files.');
        },
      }),
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request.continues).toEqual(
      buildModelView({ system: 'You are helpful.', transcript: transcript.slice(0, outcome.record.upto) }),
    );
    expect(request.prompt.startsWith(CONTINUATION_OPENING)).toBe(true);
    expect(request.prompt).toContain(DEFAULT_SUMMARIZER_RULES);
    // Nothing of the slice is repeated in the ask: the server has it already.
    expect(request.prompt).not.toContain('Question 0');
    expect(request.numPredict).toBe(REPLY_ROOM_FACTOR * budgets.summary);
    expect(outcome.record.narrative).toBe('Ten questions about files.');
  });

  it('gives the messages sent shortened whole in the ask, condensed when long', async () => {
    const slice = planCompaction({
      transcript,
      budgets,
      estimate: (m) => estimateMessageTokens(toWireMessage(m), 4),
    })!.slice;
    const tool = slice.find((m) => m.role === 'tool')!;
    const requests: Parameters<Ask>[0][] = [];
    await compactConversation(
      input({
        maxMessageChars: 5000,
        continuation: continuationOf([tool]),
        ask: async (request) => {
          requests.push(request);
          return finished('Summary.');
        },
      }),
    );
    expect(requests).toHaveLength(1);
    expect(requests[0].prompt).toContain(`[${transcript.indexOf(tool)}] tool: `);
    expect(requests[0].prompt).toContain(tool.content.replace(/\s+/g, ' ').trim());
  });

  it("counts no room for tool definitions the server's template renders none of: the continuation fits where their estimate would not", async () => {
    const first = async (toolTokens: number | undefined) => {
      const calls: string[] = [];
      await compactConversation(
        input({
          // The definitions' estimate alone leaves the continued request no room in the window.
          fixedTokens: 5000,
          continuation: (upto) => ({
            ...continuationOf()(upto),
            ...(toolTokens === undefined ? {} : { toolTokens }),
          }),
          ask: async (request) => {
            calls.push(request.continues ? 'continues' : 'standalone');
            return finished('Summary.');
          },
        }),
      );
      return calls[0];
    };
    expect(await first(undefined)).toBe('standalone');
    expect(await first(0)).toBe('continues');
  });

  it('falls back to the standalone prompt when the model calls a tool, or when the request would not fit', async () => {
    const calls: string[] = [];
    const outcome = await compactConversation(
      input({
        continuation: continuationOf(),
        ask: async (request) => {
          calls.push(request.continues ? 'continues' : 'standalone');
          return request.continues
            ? { text: '', cutOff: false, calledTools: true }
            : finished('Standalone summary.');
        },
      }),
    );
    expect(calls).toEqual(['continues', 'standalone']);
    expect(outcome.ok && outcome.record.narrative).toBe('Standalone summary.');

    calls.length = 0;
    await compactConversation(
      input({
        // The chat's window cannot hold the slice with the reply's room beside it.
        summarizerNumCtx: 3000,
        continuation: continuationOf(),
        ask: async (request) => {
          calls.push(request.continues ? 'continues' : 'standalone');
          return finished('Standalone summary.');
        },
      }),
    );
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call === 'standalone')).toBe(true);
  });
});

describe('follow-ups on a summary of a continued request', () => {
  const continuation = (upto: number) => ({
    messages: buildModelView({ system: 'You are helpful.', transcript, end: upto }),
    shortened: [],
  });
  /** Each request as `continues <what>` or `standalone <what>`; the fold's reply is 3× over the limit. */
  async function followUpCalls(summarizerNumCtx: number): Promise<string[]> {
    const calls: string[] = [];
    await compactConversation(
      input({
        summarizerNumCtx,
        continuation,
        ask: async (request) => {
          const what = request.prompt.includes(OVER_LIMIT_NOTICE)
            ? 'condense'
            : request.prompt.startsWith(CONDENSE_OPENING)
              ? 'condense'
              : 'fold';
          calls.push(`${request.continues ? 'continues' : 'standalone'} ${what}`);
          return finished(what === 'fold' ? 'Long summary. '.repeat(700) : 'Short summary.');
        },
      }),
    );
    return calls;
  }

  it('condenses by asking the continued request again, told the summary was over the limit', async () => {
    expect(await followUpCalls(8192)).toEqual(['continues fold', 'continues condense']);
  });

  it('asks on its own, as before, when the follow-up would not fit the window that way', async () => {
    // Windows from the one where the fold fits down: where it still fits, the condense does or goes on its own.
    const seen = new Set<string>();
    for (let numCtx = 8192; numCtx > 2048; numCtx -= 8) {
      const calls = await followUpCalls(numCtx);
      if (calls[0] !== 'continues fold') break;
      expect(calls).toHaveLength(2);
      seen.add(calls[1]);
    }
    expect([...seen].sort()).toEqual(['continues condense', 'standalone condense']);
  });
});

describe("compactConversation with tokens joining after it (recall's definition)", () => {
  const how = (calls: string[]) => async (request: Parameters<Ask>[0]) => {
    calls.push(request.continues ? 'continues' : 'standalone');
    return finished('Summary.');
  };
  const continuation = (upto: number) => ({
    messages: buildModelView({ system: 'You are helpful.', transcript, end: upto }),
    shortened: [],
  });

  it('counts them in the figure after, not in the chat request it continues (that one carries the tools the chat sent)', async () => {
    // The smallest summarizer window the continued request fits.
    let numCtx = 1024;
    for (; numCtx < 8192; numCtx += 32) {
      const calls: string[] = [];
      await compactConversation(input({ summarizerNumCtx: numCtx, continuation, ask: how(calls) }));
      if (calls[0] === 'continues') break;
    }
    const run = async (extra: Partial<CompactionInput>) => {
      const calls: string[] = [];
      const outcome = await compactConversation(
        input({ summarizerNumCtx: numCtx, continuation, ask: how(calls), ...extra }),
      );
      if (!outcome.ok) throw new Error('compaction failed');
      return { calls, after: outcome.record.tokensAfter, before: outcome.record.tokensBefore };
    };
    const plain = await run({});
    const joining = await run({ joiningTokens: 100 });
    expect(joining.calls).toEqual(['continues']);
    expect(joining.after).toBe(plain.after + 100);
    expect(joining.before).toBe(plain.before);
    // The same tokens carried already would not fit beside the continued request.
    expect((await run({ fixedTokens: 100 })).calls[0]).toBe('standalone');
  });

  it('are no sign of a summary that cannot shrink: the loop guard weighs the view before against the view after', async () => {
    const plain = await compactConversation(input({ ask: how([]) }));
    if (!plain.ok) throw new Error('compaction failed');
    const { tokensBefore, tokensAfter } = plain.record;
    // Enough joining tokens to carry the figure after past 95% of before (a first compaction at
    // 2k, where recall's 58 tokens join: "needed ≤ 1,063 tokens, got 1,086" before this).
    const joiningTokens = Math.floor(tokensBefore * 0.95) - tokensAfter + 20;
    expect(joiningTokens).toBeGreaterThan(0);
    const joined = await compactConversation(input({ ask: how([]), joiningTokens }));
    expect(joined.ok).toBe(true);
    if (joined.ok) expect(joined.record.tokensAfter).toBe(tokensAfter + joiningTokens);
  });
});

describe('the exact details check', () => {
  /** The default budgets at 4096 (reserve 1024, keep_recent 1228, summary 614). */
  const defaults4k = resolveBudgets(4096, {
    reserve: { ratio: 0.25, min_tokens: 1024 },
    keep_recent: { ratio: 0.3, min_tokens: 1024 },
    summary: { ratio: 0.15, min_tokens: 512 },
  });
  /** A summarizer that keeps only plain words, as small models do: every path, number and id dropped. */
  const gist: Ask = async ({ prompt }) => {
    const limit = Number(/at most (\d+) characters/.exec(prompt)?.[1] ?? 400);
    const source = [
      /<summary>\n([\s\S]*?)\n<\/summary>/.exec(prompt)?.[1] ?? '',
      /<messages>\n([\s\S]*?)\n<\/messages>/.exec(prompt)?.[1] ?? '',
    ].join(' ');
    const words = source.split(/\s+/).filter((w) => /^[A-Za-z][a-z]*[,.]?$/.test(w));
    while (words.join(' ').length > limit) words.shift();
    return finished(words.join(' ') || 'Talk.');
  };
  const sentences = ELEVEN.map(([, sentence]) => sentence);
  const filler = (i: number) => `Filler ${i}: ${'lorem ipsum dolor sit amet '.repeat(30)}`;
  /** The eleven sentences as the first turns, then long filler turns, compacted after each few. */
  async function compactRounds(details: CompactionInput['details'], rounds: number) {
    const specsList: TurnSpec[] = sentences.map((s) => ({ user: s, steps: [{ reply: 'Noted.' }] }));
    let record: CompactionRecord | undefined;
    const reports: string[] = [];
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < 8; i++)
        specsList.push({ user: filler(round * 8 + i), steps: [{ reply: 'Okay.' }] });
      const outcome = await compactConversation(
        input({
          transcript: buildTranscript(specsList),
          previous: record,
          budgets: defaults4k,
          ask: gist,
          summarizerNumCtx: 4096,
          maxMessageChars: 1000,
          details,
        }),
      );
      if (!outcome.ok) throw new Error(JSON.stringify(outcome));
      record = outcome.record;
      reports.push(formatCompactionReport(outcome.result));
    }
    const view = buildModelView({
      system: 'You are helpful.',
      record,
      transcript: buildTranscript(specsList),
    });
    return {
      record: record as CompactionRecord,
      reports,
      view: view.map((m) => m.content).join('\n'),
      last: specsList.length,
    };
  }

  it('keeps every one of the eleven details verbatim through three gist-only compactions, and the report says how', async () => {
    const { record, reports, view } = await compactRounds({ share: 0.3 }, 3);
    for (const [, , detail] of ELEVEN) expect(view).toContain(detail);
    // The gist kept none: all are in the list, each with its context.
    expect(record.details?.map((d) => d.text)).toEqual(ELEVEN.map(([, , d]) => d));
    expect(view).toContain('- 5433 (host listens on port …)\n');
    expect(reports[0]).toMatch(/; 11 exact details kept \(0 by the summary, 11 in the details list\)$/);
    expect(reports[2]).toMatch(/; 11 exact details kept \(0 by the summary, 11 in the details list\)$/);
    expect(estimateTokens(renderSummarySection(record), 4)).toBeLessThanOrEqual(defaults4k.summary);
  });

  it('without it (compaction.details: off), the gist-only summary loses every one of them', async () => {
    const { view, reports } = await compactRounds(undefined, 3);
    for (const [, , detail] of ELEVEN) expect(view).not.toContain(detail);
    expect(reports[0]).not.toContain('exact details');
  });

  it('lists the details in the request, asks once more for the missing ones, and counts those the summary then keeps', async () => {
    const prompts: string[] = [];
    const ask: Ask = async ({ prompt }) => {
      prompts.push(prompt);
      // The second request names what is missing: this summarizer then writes the first three in.
      if (prompt.startsWith(MISSING_DETAILS_OPENING))
        return finished(
          `Kept ${ELEVEN.slice(0, 3)
            .map(([, , d]) => d)
            .join(', ')}.`,
        );
      return finished('The user gave settings.');
    };
    const transcript = buildTranscript([
      ...sentences.map((s) => ({ user: s, steps: [{ reply: 'Noted.' }] })),
      ...Array.from({ length: 8 }, (_, i) => ({ user: filler(i), steps: [{ reply: 'Okay.' }] })),
    ]);
    const outcome = await compactConversation(
      input({ transcript, ask, budgets: defaults4k, details: { share: 0.3 } }),
    );
    if (!outcome.ok) throw new Error('failed');
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).toContain(`${DETAILS_OPENING}\n- /etc/payments/db.conf\n- 5433\n`);
    expect(prompts[1]).toContain('- MAX_RETRIES=17');
    expect(outcome.result.details).toMatchObject({ bySummary: 3, inList: 8, folded: 0, foldedTotal: 0 });
    expect(outcome.record.keptDetails?.map((d) => d.text)).toEqual(ELEVEN.slice(0, 3).map(([, , d]) => d));
    expect(formatCompactionReport(outcome.result)).toContain(
      '; 11 exact details kept (3 by the summary, 8 in the details list)',
    );
  });

  it('lets the list grow past its share into the room a short summary leaves: nothing folded while the budget has room', async () => {
    const transcript = buildTranscript([
      ...sentences.map((s) => ({ user: s, steps: [{ reply: 'Noted.' }] })),
      ...Array.from({ length: 8 }, (_, i) => ({ user: filler(i), steps: [{ reply: 'Okay.' }] })),
    ]);
    const share = 0.05;
    const outcome = await compactConversation(
      input({
        transcript,
        ask: async () => finished('The user gave settings.'),
        budgets: defaults4k,
        details: { share },
      }),
    );
    if (!outcome.ok) throw new Error('failed');
    // The eleven take more than their share, and all are kept.
    expect(detailsListCost(outcome.record, (t) => estimateTokens(t, 4))).toBeGreaterThan(
      share * defaults4k.summary,
    );
    expect(outcome.result.details).toMatchObject({ bySummary: 0, inList: 11, folded: 0, foldedTotal: 0 });
    expect(estimateTokens(renderSummarySection(outcome.record), 4)).toBeLessThanOrEqual(defaults4k.summary);
  });

  it('condenses a summary that fills its limit to give the list room, though the details it held then move to the list', async () => {
    const transcript = buildTranscript([
      ...sentences.map((s) => ({ user: s, steps: [{ reply: 'Noted.' }] })),
      ...Array.from({ length: 8 }, (_, i) => ({ user: filler(i), steps: [{ reply: 'Okay.' }] })),
    ]);
    const asked: string[] = [];
    /** Writes up to its limit, six of the details in it; condensed, it keeps only the gist. */
    const crowding: Ask = async ({ prompt }) => {
      asked.push(prompt);
      if (prompt.startsWith(CONDENSE_OPENING)) return finished('The user gave settings.');
      const limit = Number(/at most (\d+) characters/.exec(prompt)?.[1] ?? 400);
      let text = `Kept ${ELEVEN.slice(0, 6)
        .map(([, , d]) => d)
        .join(', ')}.`;
      while (text.length + 5 <= limit) text += ' talk';
      return finished(text);
    };
    const outcome = await compactConversation(
      input({ transcript, ask: crowding, budgets: defaults4k, details: { share: 0.3 } }),
    );
    if (!outcome.ok) throw new Error('failed');
    expect(asked.some((p) => p.startsWith(CONDENSE_OPENING))).toBe(true);
    // Every detail kept, none folded: the six the long summary held are in the list now.
    expect(outcome.result.details).toMatchObject({ bySummary: 0, inList: 11, folded: 0, foldedTotal: 0 });
    expect(outcome.record.narrative).toBe('The user gave settings.');
    expect(estimateTokens(renderSummarySection(outcome.record), 4)).toBeLessThanOrEqual(defaults4k.summary);
  });

  it('keeps a detail of a tool output the summary holds: no list holds it, so no condensing for the list drops it', async () => {
    const transcript = buildTranscript([
      ...sentences.map((s) => ({ user: s, steps: [{ reply: 'Noted.' }] })),
      {
        user: 'What does the config say?',
        steps: [
          { tools: [{ name: 'read_file', output: 'replicas: 7 and queue QX-4411 in config' }] },
          { reply: 'Read.' },
        ],
      },
      ...Array.from({ length: 8 }, (_, i) => ({ user: filler(i), steps: [{ reply: 'Okay.' }] })),
    ]);
    const asked: string[] = [];
    /** Writes up to its limit, the tool output's queue in it; condensed, it keeps only the gist. */
    const crowding: Ask = async ({ prompt }) => {
      asked.push(prompt);
      if (prompt.startsWith(CONDENSE_OPENING)) return finished('The user gave settings.');
      const limit = Number(/at most (\d+) characters/.exec(prompt)?.[1] ?? 400);
      let text = 'The config names queue QX-4411.';
      while (text.length + 5 <= limit) text += ' talk';
      return finished(text);
    };
    const outcome = await compactConversation(
      input({ transcript, ask: crowding, budgets: defaults4k, details: { share: 0.6 } }),
    );
    if (!outcome.ok) throw new Error('failed');
    expect(asked.some((p) => p.startsWith(CONDENSE_OPENING))).toBe(true);
    expect(renderSummarySection(outcome.record)).toContain('QX-4411');
    expect(estimateTokens(renderSummarySection(outcome.record), 4)).toBeLessThanOrEqual(defaults4k.summary);
  });

  it("asks once more only for the new messages' details: the older ones are named in the request, and the list carries them", async () => {
    const prompts: string[] = [];
    const ask: Ask = async (request) => {
      prompts.push(request.prompt);
      return gist(request);
    };
    const first = buildTranscript([
      ...sentences.map((s) => ({ user: s, steps: [{ reply: 'Noted.' }] })),
      ...Array.from({ length: 8 }, (_, i) => ({ user: filler(i), steps: [{ reply: 'Okay.' }] })),
    ]);
    const once = await compactConversation(
      input({ transcript: first, ask, budgets: defaults4k, details: { share: 0.6 } }),
    );
    if (!once.ok) throw new Error('failed');
    expect(prompts.filter((p) => p.startsWith(MISSING_DETAILS_OPENING))).toHaveLength(1);
    prompts.length = 0;
    const second = buildTranscript([
      ...sentences.map((s) => ({ user: s, steps: [{ reply: 'Noted.' }] })),
      ...Array.from({ length: 8 }, (_, i) => ({ user: filler(i), steps: [{ reply: 'Okay.' }] })),
      { user: 'The backup host is bk-0917 now.', steps: [{ reply: 'Noted.' }] },
      ...Array.from({ length: 8 }, (_, i) => ({ user: filler(10 + i), steps: [{ reply: 'Okay.' }] })),
    ]);
    const twice = await compactConversation(
      input({ transcript: second, previous: once.record, ask, budgets: defaults4k, details: { share: 0.6 } }),
    );
    if (!twice.ok) throw new Error('failed');
    // The first request names the carried details too (a summarizer may keep them in its words)…
    expect(prompts[0]).toContain('- /etc/payments/db.conf\n');
    // …the second asks only for the new one.
    const again = prompts.filter((p) => p.startsWith(MISSING_DETAILS_OPENING));
    expect(again).toHaveLength(1);
    expect(again[0]).toContain('- bk-0917');
    expect(again[0]).not.toContain('/etc/payments/db.conf');
    expect(twice.result.details).toMatchObject({ bySummary: 0, inList: 12, folded: 0 });
  });

  it("counts a paste's details past the per-message cap as folded, in the report and the section", async () => {
    const paste = Array.from({ length: 100 }, (_, i) => `job ${7000 + i} done`).join('\n');
    const transcript = buildTranscript([
      { user: `Here is the log:\n${paste}`, steps: [{ reply: 'Seen.' }] },
      ...Array.from({ length: 8 }, (_, i) => ({ user: filler(i), steps: [{ reply: 'Okay.' }] })),
    ]);
    const outcome = await compactConversation(
      input({
        transcript,
        ask: gist,
        budgets: defaults4k,
        maxMessageChars: 100_000,
        details: { share: 0.6 },
      }),
    );
    if (!outcome.ok) throw new Error('failed');
    const { details } = outcome.result;
    // All 100 accounted for: listed, or folded and said so.
    expect((details?.inList ?? 0) + (details?.folded ?? 0)).toBe(100);
    expect(details?.folded).toBeGreaterThanOrEqual(100 - MAX_DETAILS_PER_MESSAGE);
    expect(formatCompactionReport(outcome.result)).toContain(
      `; ${details?.folded} exact details folded to fit the summary budget (recall still finds them)`,
    );
    expect(renderSummarySection(outcome.record)).toContain(
      `(${details?.folded} exact details folded to fit; recall finds them)`,
    );
  });

  it('folds the oldest details past their share, and the report and the section say how many', async () => {
    const many: TurnSpec[] = Array.from({ length: 60 }, (_, i) => ({
      user: `Order ORD-${70000 + i} ships to warehouse W${100 + i} on 2026-04-${String((i % 28) + 1).padStart(2, '0')}.`,
      steps: [{ reply: 'Noted.' }],
    }));
    for (let i = 0; i < 8; i++) many.push({ user: filler(i), steps: [{ reply: 'Okay.' }] });
    const outcome = await compactConversation(
      input({ transcript: buildTranscript(many), ask: gist, budgets: defaults4k, details: { share: 0.3 } }),
    );
    if (!outcome.ok) throw new Error('failed');
    const { details } = outcome.result;
    expect(details?.folded).toBeGreaterThan(0);
    expect(formatCompactionReport(outcome.result)).toContain(
      `; ${details?.folded} exact details folded to fit the summary budget (recall still finds them)`,
    );
    expect(renderSummarySection(outcome.record)).toContain(
      `(${details?.folded} exact details folded to fit; recall finds them)`,
    );
    // The newest are the ones kept, the oldest folded.
    const kept = outcome.record.details?.map((d) => d.text) ?? [];
    expect(kept).toContain('ORD-70059');
    expect(kept).not.toContain('ORD-70000');
    expect(estimateTokens(renderSummarySection(outcome.record), 4)).toBeLessThanOrEqual(defaults4k.summary);
  });

  it('accounts for every detail, compaction after compaction: in the summary, in the list, or counted as folded (property, fixed seed)', async () => {
    const detailArb = fc.oneof(
      fc.nat(99_999).map((n) => `ORD-${10_000 + n}`),
      fc.nat(9999).map((n) => `port ${1000 + n}`),
      fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20)).map(([a, b, c]) => `v${a}.${b}.${c}`),
      fc.stringMatching(/^[a-z]{2,8}$/).map((w) => `/srv/${w}/app.conf`),
    );
    const turnArbWithDetails = fc.tuple(fc.array(detailArb, { maxLength: 4 }), fc.nat(1500)).map(
      ([details, pad]): TurnSpec => ({
        user: `Note ${details.join(' and ')}. ${'blah '.repeat(pad / 5)}`,
        steps: [{ reply: 'Noted.' }],
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnArbWithDetails, { minLength: 8, maxLength: 30 }),
        fc.constantFrom(2048, 4096, 8192),
        fc.double({ min: 0.05, max: 0.6, noNaN: true }),
        fc.boolean(),
        async (turns, numCtx, share, keepsSome) => {
          const b = resolveBudgets(numCtx, specs);
          const ask: Ask = keepsSome
            ? async ({ prompt }) => finished(`Kept ${(/ORD-\d+/.exec(prompt) ?? ['nothing'])[0]}.`)
            : gist;
          let record: CompactionRecord | undefined;
          const seen = new Set<string>();
          for (let n = 4; n <= turns.length; n += 4) {
            const messages = buildTranscript(turns.slice(0, n));
            const outcome = await compactConversation(
              input({
                transcript: messages,
                previous: record,
                budgets: b,
                ask,
                summarizerNumCtx: numCtx,
                details: { share },
              }),
            );
            if (!outcome.ok) continue;
            const next = outcome.record;
            for (const d of collectDetails(messages.slice(record?.upto ?? 0, next.upto))) seen.add(d.text);
            const estimate = (t: string) => estimateTokens(t, 4);
            expect(estimate(renderSummarySection(next))).toBeLessThanOrEqual(b.summary);
            const inSummary = new Set((next.keptDetails ?? []).map((d) => d.text));
            const listed = new Set((next.details ?? []).map((d) => d.text));
            for (const d of inSummary) expect(next.narrative).toContain(d);
            for (const d of listed) expect(inSummary.has(d)).toBe(false);
            // Nothing silently lost: each detail seen is tracked, or one of the folded.
            const tracked = [...seen].filter((d) => inSummary.has(d) || listed.has(d)).length;
            expect(tracked + (next.detailsFolded ?? 0)).toBeGreaterThanOrEqual(seen.size);
            expect(next.detailsFolded ?? 0).toBeGreaterThanOrEqual(record?.detailsFolded ?? 0);
            record = next;
          }
        },
      ),
      { seed: 3304, numRuns: 40 },
    );
  });
});
