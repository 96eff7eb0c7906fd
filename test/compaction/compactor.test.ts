import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ask, SummarizerReply } from '../../src/compaction/ask.js';
import { type BudgetSpecs, type Budgets, resolveBudgets } from '../../src/compaction/budgets.js';
import { REPLY_ROOM_FACTOR } from '../../src/compaction/chunking.js';
import { type CompactionInput, compactConversation } from '../../src/compaction/compactor.js';
import { IN_PARTS_NOTE } from '../../src/compaction/long-messages.js';
import { buildModelView, toWireMessage } from '../../src/compaction/model-view.js';
import { planCompaction } from '../../src/compaction/plan.js';
import { formatCompactionReport } from '../../src/compaction/report.js';
import { CONTINUATION_OPENING, DEFAULT_SUMMARIZER_RULES } from '../../src/compaction/summarizer-prompt.js';
import { toolLogRoom } from '../../src/compaction/summary.js';
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
          expect(toolCost).toBeLessThanOrEqual(toolLogRoom(b.summary, record.narrative, estimate));
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
