import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ask, SummarizerReply } from '../../src/compaction/ask.js';
import {
  chunkCapacity,
  chunkLines,
  MIN_CHUNK_TOKENS,
  REPLY_ROOM_FACTOR,
  summarizeLines,
} from '../../src/compaction/chunking.js';
import { CONDENSE_OPENING, CUT_OFF_NOTICE } from '../../src/compaction/summarizer-prompt.js';
import { estimateTokens } from '../../src/conversation/token-estimate.js';

const length = (s: string) => s.length;
/** One token per character. */
const chars = length;
/** A reply the server finished (not cut off at num_predict). */
const finished = (text: string): SummarizerReply => ({ text, cutOff: false });
const estimate = (s: string) => estimateTokens(s, 4);

/** Lines of the `<messages>` block of a summarizer prompt. */
function promptLines(prompt: string): string[] {
  const match = /<messages>\n([\s\S]*)\n<\/messages>/.exec(prompt);
  return match ? match[1].split('\n') : [];
}

describe('chunkLines', () => {
  it('packs consecutive lines greedily', () => {
    expect([...chunkLines(['aaaa', 'bbbb', 'cc'], 10, length)]).toEqual([['aaaa', 'bbbb'], ['cc']]);
    expect([...chunkLines([], 10, length)]).toEqual([]);
  });

  it('splits a line too long for any chunk into pieces that each fit, losing nothing', () => {
    const line = `${'x'.repeat(50)}FACT-middle${'y'.repeat(50)}`;
    const chunks = [...chunkLines([line], 20, length)];
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) for (const piece of chunk) expect(piece.length + 1).toBeLessThanOrEqual(20);
    expect(chunks.flat().join('')).toBe(line);
  });

  it('puts every line in exactly one chunk, in order, each chunk within its size', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 200 })),
        fc.integer({ min: 60, max: 400 }),
        (lines, max) => {
          const chunks = [...chunkLines(lines, max, estimate)];
          expect(chunks.flat()).toEqual(lines);
          for (const chunk of chunks) {
            expect(chunk.length).toBeGreaterThan(0);
            expect(chunk.reduce((sum, l) => sum + estimate(`${l}\n`), 0)).toBeLessThanOrEqual(max);
          }
        },
      ),
    );
  });
  it("costs work linear in a line's length: the characters it estimates grow with the line, not its square", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 60, max: 2_000 }),
        fc.constantFrom('x', 'é', '語', '😀', 'ab cd '),
        (max, unit) => {
          /** Characters estimated to chunk a line of `units` units, and its length. */
          const work = (units: number) => {
            const line = unit.repeat(units);
            let estimated = 0;
            const counting = (text: string) => {
              estimated += text.length;
              return estimate(text);
            };
            const chunks = [...chunkLines([line], max, counting)];
            expect(chunks.flat().join('')).toBe(line);
            return estimated / line.length;
          };
          // Per character of the line, the work stays the same however long the line (16× here):
          // re-estimating the rest of the line for each piece made it grow with the line.
          const short = work(20_000);
          const long = work(320_000);
          expect(long).toBeLessThanOrEqual(short * 1.25 + 1);
          expect(long).toBeLessThan(4 * Math.log2(16 * max) + 8);
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('summarizeLines', () => {
  const lines = Array.from({ length: 40 }, (_, i) => `[${i}] user: message number ${i} ${'z'.repeat(200)}`);

  it('summarizes in one request when the lines fit', async () => {
    const prompts: string[] = [];
    const ask: Ask = async ({ prompt, numPredict }) => {
      prompts.push(prompt);
      expect(numPredict).toBe(REPLY_ROOM_FACTOR * 300);
      return finished('All in one.');
    };
    const { narrative } = await summarizeLines({
      lines,
      previousNarrative: 'Earlier facts.',
      ask,
      summaryTokens: 300,
      targetTokens: 200,
      charsPerToken: 4,
      summarizerNumCtx: 32_768,
      estimate,
    });
    expect(narrative).toBe('All in one.');
    expect(prompts).toHaveLength(1);
    expect(promptLines(prompts[0])).toEqual(lines);
    expect(prompts[0]).toContain('Earlier facts.');
  });

  it('chunks in order, folding each reply into the next request, seeing every line once', async () => {
    const prompts: string[] = [];
    const ask: Ask = async ({ prompt }) => {
      prompts.push(prompt);
      return finished(`Narrative after chunk ${prompts.length}.`);
    };
    const { narrative } = await summarizeLines({
      lines,
      previousNarrative: 'Earlier facts.',
      ask,
      summaryTokens: 300,
      targetTokens: 200,
      charsPerToken: 4,
      summarizerNumCtx: 2048,
      estimate,
    });
    expect(prompts.length).toBeGreaterThan(2);
    expect(prompts.flatMap(promptLines)).toEqual(lines);
    expect(prompts[0]).toContain('Earlier facts.');
    prompts.slice(1).forEach((prompt, i) => {
      expect(prompt).toContain(`Narrative after chunk ${i + 1}.`);
      expect(prompt).not.toContain('Earlier facts.');
    });
    expect(narrative).toBe(`Narrative after chunk ${prompts.length}.`);
    for (const prompt of prompts) expect(estimate(prompt) + 300).toBeLessThanOrEqual(2048);
  });

  it('keeps every request within the summarizer window for any lines and sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 600 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1024, max: 8192 }),
        fc.integer({ min: 50, max: 400 }),
        async (input, numCtx, summaryTokens) => {
          const seen: string[][] = [];
          let system = '';
          const ask: Ask = async (request) => {
            system = request.system;
            // Over-long replies are sent back once to be condensed: those requests carry no lines.
            if (!request.prompt.startsWith(CONDENSE_OPENING)) seen.push(promptLines(request.prompt));
            expect(estimate(request.system) + estimate(request.prompt) + summaryTokens).toBeLessThanOrEqual(
              numCtx,
            );
            return finished('x'.repeat(summaryTokens * 8));
          };
          const capacity = chunkCapacity({ summarizerNumCtx: numCtx, summaryTokens, estimate });
          const run = summarizeLines({
            lines: input.map((l) => `[0] user: ${l.replace(/\n/g, ' ')}`),
            ask,
            summaryTokens,
            targetTokens: summaryTokens,
            charsPerToken: 4,
            summarizerNumCtx: numCtx,
            estimate,
          });
          if (capacity < MIN_CHUNK_TOKENS) {
            await expect(run).rejects.toThrow(/too small/);
            return;
          }
          const { narrative } = await run;
          expect(system.length).toBeGreaterThan(0);
          expect(seen.length).toBe(
            [
              ...chunkLines(
                input.map((l) => `[0] user: ${l.replace(/\n/g, ' ')}`),
                capacity,
                estimate,
              ),
            ].length,
          );
          expect(estimate(narrative)).toBeLessThanOrEqual(summaryTokens);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('fails on an empty summary and on a window too small to work in', async () => {
    const base = {
      lines,
      summaryTokens: 300,
      targetTokens: 200,
      charsPerToken: 4,
      summarizerNumCtx: 32_768,
      estimate,
    };
    await expect(summarizeLines({ ...base, ask: async () => finished('  \n') })).rejects.toThrow(
      /empty summary/,
    );
    await expect(summarizeLines({ ...base, ask: async () => finished('<think>x</think>') })).rejects.toThrow(
      /empty summary/,
    );
    await expect(
      summarizeLines({ ...base, summarizerNumCtx: 600, ask: async () => finished('x') }),
    ).rejects.toThrow(/too small/);
  });

  it('stops between chunks once cancelled', async () => {
    const controller = new AbortController();
    let calls = 0;
    const ask: Ask = async () => {
      calls++;
      controller.abort();
      return finished('partial');
    };
    await expect(
      summarizeLines({
        lines,
        ask,
        summaryTokens: 300,
        targetTokens: 200,
        charsPerToken: 4,
        summarizerNumCtx: 2048,
        estimate,
        signal: controller.signal,
      }),
    ).rejects.toThrow('cancelled');
    expect(calls).toBe(1);
  });
});

describe('summarizeLines over budget', () => {
  const lines = ['[0] user: my key is FACT-k1', '[1] assistant: noted'];
  const base = {
    lines,
    summaryTokens: 300,
    targetTokens: 50,
    charsPerToken: 4,
    summarizerNumCtx: 32_768,
    estimate,
  };

  it('states the limit in characters a reply can meet: one written up to it is never cut', async () => {
    let limit = 0;
    const ask: Ask = async ({ prompt }) => {
      limit = Number(/at most (\d+) characters/.exec(prompt)![1]);
      return finished('y'.repeat(limit));
    };
    const result = await summarizeLines({ ...base, ask });
    expect(limit).toBe(200);
    expect(result).toEqual({ narrative: 'y'.repeat(200), cut: undefined, parts: 1 });
  });

  it('states a limit a reply in Cyrillic or CJK can meet too: one written up to it is never cut', async () => {
    for (const [letter, lines] of [
      ['ж', ['[0] user: мой ключ FACT-k1', '[1] assistant: записано']],
      ['字', ['[0] user: 我的钥匙是 FACT-k1', '[1] assistant: 记下了']],
    ] as const) {
      let limit = 0;
      const ask: Ask = async ({ prompt }) => {
        limit = Number(/at most (\d+) characters/.exec(prompt)![1]);
        return finished(letter.repeat(limit));
      };
      const result = await summarizeLines({ ...base, lines, ask });
      expect(result.cut, letter).toBeUndefined();
      expect(estimate(result.narrative)).toBeLessThanOrEqual(50);
      // …and no smaller than it must be: within a token's worth of the budget.
      expect(estimate(result.narrative), letter).toBeGreaterThan(50 - 10);
    }
  });

  it('does not shrink the limit of an English conversation for a few accented words', async () => {
    let limit = 0;
    const ask: Ask = async ({ prompt }) => {
      limit = Number(/at most (\d+) characters/.exec(prompt)![1]);
      return finished('ok');
    };
    await summarizeLines({
      ...base,
      lines: ['[0] user: meet me at the café near the station, FACT-k1'],
      ask,
    });
    expect(limit).toBeGreaterThanOrEqual(195);
  });

  it('asks once more to condense an over-long reply, telling its size and the target, and keeps the shorter one', async () => {
    const prompts: string[] = [];
    const long = `FACT-k1 ${'wordy '.repeat(60)}`.trim();
    const ask: Ask = async ({ prompt }) => {
      prompts.push(prompt);
      return finished(prompts.length === 1 ? long : 'FACT-k1 condensed.');
    };
    const result = await summarizeLines({ ...base, ask });
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain(`${CONDENSE_OPENING} ${long.length} characters, and the limit is 200.`);
    expect(prompts[1]).toContain(`<summary>\n${long}\n</summary>`);
    expect(result).toEqual({ narrative: 'FACT-k1 condensed.', cut: undefined, parts: 1 });
  });

  it('cuts only when the condensed reply is still over, keeping the exact words and returning what was cut', async () => {
    const long = `Earlier: ${'plain words here '.repeat(20)}FACT-k1 and /etc/app.conf, newest FACT-k9.`;
    const result = await summarizeLines({ ...base, ask: async () => finished(long) });
    expect(estimate(result.narrative)).toBeLessThanOrEqual(50);
    expect(result.narrative).toContain('FACT-k1');
    expect(result.narrative).toContain('/etc/app.conf,');
    expect(result.narrative).toContain('FACT-k9.');
    expect(result.cut!.text).toContain('plain words here');
    expect(result.cut!.tokens).toBeGreaterThan(0);
  });
});

describe('summarizeLines: what a cut reports', () => {
  const many = Array.from({ length: 40 }, (_, i) => `[${i}] user: message ${i} ${'z'.repeat(200)}`);

  it('adds up, chunk by chunk, the tokens cut and the words removed, one line per chunk', async () => {
    let call = 0;
    // Every reply and every condensed reply: over the target, a different plain word per chunk.
    const ask: Ask = async ({ prompt }) => {
      if (!prompt.startsWith(CONDENSE_OPENING)) call += 1;
      return finished(`${`word${String.fromCharCode(96 + call)} `.repeat(40)}FACT-${call}`);
    };
    const result = await summarizeLines({
      lines: many,
      ask,
      summaryTokens: 300,
      targetTokens: 30,
      charsPerToken: 1,
      summarizerNumCtx: 8000,
      estimate: chars,
    });
    expect(call).toBeGreaterThan(1);
    const lines = result.cut!.text.split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual(
      Array.from({ length: call }, (_, i) => `word${String.fromCharCode(97 + i)}`),
    );
    // Every reply is 246 characters and kept as much as the last one did: the tokens add up.
    expect(result.narrative.endsWith(`FACT-${call}`)).toBe(true);
    expect(result.cut!.tokens).toBe(call * (246 - result.narrative.length));
  });

  it('a condensed reply no shorter than the reply is not taken', async () => {
    const long = `FACT-k1 ${'wordy '.repeat(60)}`.trim();
    const same = `FACT-k2 ${'other '.repeat(60)}`.trim();
    const ask: Ask = async ({ prompt }) => finished(prompt.startsWith(CONDENSE_OPENING) ? same : long);
    const result = await summarizeLines({
      lines: ['[0] user: FACT-k1'],
      ask,
      summaryTokens: 300,
      targetTokens: 50,
      charsPerToken: 4,
      summarizerNumCtx: 32_768,
      estimate,
    });
    expect(result.narrative).toContain('FACT-k1');
    expect(result.narrative).not.toContain('FACT-k2');
  });

  it('does not ask to condense a reply whose condense request would not fit the summarizer window', async () => {
    const prompts: string[] = [];
    const ask: Ask = async ({ prompt }) => {
      prompts.push(prompt);
      return finished(`FACT-k1 ${'wordy '.repeat(700)}`);
    };
    // A 4200-character reply is ~1050 tokens: with the rules and a 300-token reply room, over 0.9 × 1536.
    const result = await summarizeLines({
      lines: ['[0] user: FACT-k1'],
      ask,
      summaryTokens: 300,
      targetTokens: 50,
      charsPerToken: 4,
      summarizerNumCtx: 1536,
      estimate,
    });
    expect(prompts).toHaveLength(1);
    expect(result.narrative).toContain('FACT-k1');
    expect(result.cut?.text).toContain('wordy');
  });
});

describe('summarizeLines when the server cuts a reply off at num_predict', () => {
  const lines = ['[0] user: my key is FACT-k1', '[1] user: my door is FACT-k2'];
  const base = {
    lines,
    summaryTokens: 300,
    targetTokens: 50,
    charsPerToken: 4,
    summarizerNumCtx: 32_768,
    estimate,
  };
  const cutOff = (text: string): SummarizerReply => ({ text, cutOff: true });

  it('asks for the whole summary again, told its reply was cut off, and keeps a finished answer: nothing lost', async () => {
    const prompts: string[] = [];
    const ask: Ask = async ({ prompt }) => {
      prompts.push(prompt);
      return prompts.length === 1 ? cutOff('FACT-k1 and then') : finished('FACT-k1 FACT-k2.');
    };
    const result = await summarizeLines({ ...base, ask });
    expect(result).toEqual({ narrative: 'FACT-k1 FACT-k2.', cut: undefined, parts: 1 });
    expect(prompts).toHaveLength(2);
    // The second request carries the whole slice again (the facts the cut reply lost are in it).
    expect(promptLines(prompts[1])).toEqual(lines);
    expect(prompts[0]).not.toContain(CUT_OFF_NOTICE);
    expect(prompts[1]).toContain(CUT_OFF_NOTICE);
    expect(prompts[1]).toContain('at most 200 characters');
  });

  it('when cut off again, condenses what arrived and reports the lost end, however short the text', async () => {
    const prompts: string[] = [];
    const ask: Ask = async ({ prompt }) => {
      prompts.push(prompt);
      if (prompts.length < 3) return cutOff(`FACT-k1 ${'wordy '.repeat(prompts.length)}`);
      return finished('FACT-k1.');
    };
    const result = await summarizeLines({ ...base, ask });
    expect(prompts).toHaveLength(3);
    expect(prompts[2].startsWith(CONDENSE_OPENING)).toBe(true);
    expect(prompts[2]).toContain('FACT-k1 wordy wordy');
    expect(result).toEqual({ narrative: 'FACT-k1.', cut: { text: '', tokens: 0, endsLost: 1 }, parts: 1 });
  });

  it('does not take a condensed reply the server cut off: cuts the summary itself and says what it dropped', async () => {
    const long = `FACT-k1 ${'plain words here '.repeat(30)}FACT-k2`;
    const ask: Ask = async ({ prompt }) =>
      prompt.startsWith(CONDENSE_OPENING) ? cutOff('FACT-k1 short') : finished(long);
    const result = await summarizeLines({ ...base, ask });
    expect(result.narrative).toContain('FACT-k1');
    expect(result.narrative).toContain('FACT-k2');
    expect(result.narrative).not.toBe('FACT-k1 short');
    expect(result.cut?.text).toContain('plain words here');
    expect(result.cut?.endsLost).toBeUndefined();
  });

  it('counts every chunk whose reply stayed cut off', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `[${i}] user: message ${i} ${'z'.repeat(200)}`);
    const ask: Ask = async ({ prompt }) =>
      prompt.startsWith(CONDENSE_OPENING) ? finished('Short.') : cutOff('Short, cut');
    const result = await summarizeLines({ ...base, lines: many, summarizerNumCtx: 2048, ask });
    const chunks = [
      ...chunkLines(many, chunkCapacity({ summarizerNumCtx: 2048, summaryTokens: 300, estimate }), estimate),
    ];
    expect(chunks.length).toBeGreaterThan(1);
    expect(result.cut).toEqual({ text: '', tokens: 0, endsLost: chunks.length });
  });
});
