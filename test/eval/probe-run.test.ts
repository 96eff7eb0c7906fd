import { describe, expect, it } from 'vitest';
import type { Ask } from '../../src/compaction/ask.js';
import { PINS_HEADER } from '../../src/compaction/pins.js';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { PROBE_PINS, PROBE_ROUNDS, PROBES, plantedProbes } from '../../src/eval/probe-chat.js';
import { askProbes, recallReaches, runProbeChat, viewText } from '../../src/eval/probe-run.js';
import { FakeBackend } from '../support/fake-backend.js';

/** A summarizer that writes the same plain sentence whatever it is shown (the gist, at its barest). */
const gist: Ask = async () => ({ text: 'They talked about their work.', cutOff: false });

describe('runProbeChat', () => {
  it('compacts once a round, through the real compactor, and says what of each round reaches the model', async () => {
    const prompts: string[] = [];
    const ask: Ask = async (request) => {
      prompts.push(request.prompt);
      return gist(request);
    };
    const run = await runProbeChat({
      summarizer: { ask, model: 'm', numCtx: 4096 },
      numCtx: 4096,
      compaction: DEFAULT_CONFIG.compaction,
    });
    expect(run.compactions.map((c) => c.round)).toEqual(
      Array.from({ length: PROBE_ROUNDS }, (_, i) => i + 1),
    );
    for (const c of run.compactions) {
      expect(c.report).toMatch(/^Compacted \d+ messages/);
      expect(c.ms).toBeGreaterThanOrEqual(0);
    }
    expect(run.compactions[0].planted).toEqual(plantedProbes(0).map((p) => p.id));
    // The exact details were asked for: the summarizer's request lists them.
    expect(prompts.some((p) => p.includes('- /etc/payments/db.conf\n'))).toBe(true);
    // What the model would be sent: the pins, the summary, the newest turns; never the whole history.
    const text = viewText(run.view);
    for (const pin of PROBE_PINS) expect(text).toContain(pin);
    expect(run.view[0].content).toContain(PINS_HEADER);
    expect(run.view[0].content).toContain('They talked about their work.');
    expect(run.compactions.at(-1)?.inView.has('pin-1')).toBe(true);
    expect(run.record?.upto).toBeGreaterThan(0);
    expect(run.view.length).toBeLessThan(run.transcript.length);
  });

  it('ends with the failed compaction and its reason', async () => {
    const failing: Ask = async () => {
      throw new Error('the summarizer is down');
    };
    await expect(
      runProbeChat({
        summarizer: { ask: failing, model: 'm', numCtx: 4096 },
        numCtx: 4096,
        compaction: DEFAULT_CONFIG.compaction,
      }),
    ).rejects.toThrow('compaction 1 failed: the summarizer is down');
  });
});

describe('askProbes', () => {
  it('asks each question after the view, on its own, with the window and no silent cut', async () => {
    const backend = new FakeBackend();
    for (const probe of PROBES) backend.enqueue({ content: `It is ${probe.value}.` });
    const view = [{ role: 'system' as const, content: 'sys' }];
    const answers = await askProbes(backend, { model: 'fake', numCtx: 2048 }, view, PROBES);
    expect(answers.map((a) => a.answer)).toEqual(PROBES.map((p) => `It is ${p.value}.`));
    expect(backend.requests).toHaveLength(PROBES.length);
    for (const [i, request] of backend.requests.entries()) {
      expect(request.messages).toEqual([
        { role: 'system', content: 'sys' },
        { role: 'user', content: `${PROBES[i].question} Answer with the value alone.` },
      ]);
      expect(request.options?.num_ctx).toBe(2048);
      expect(request.truncate).toBe(false);
      expect(request.think).toBeUndefined();
    }
  });

  it('asks a thinking model not to think: the answer is what is scored', async () => {
    const backend = new FakeBackend();
    backend.enqueue({ content: 'Henrietta' });
    await askProbes(backend, { model: 'fake', numCtx: 2048, think: false }, [], PROBES.slice(0, 1));
    expect(backend.requests[0].think).toBe(false);
  });
});

describe('recallReaches', () => {
  it('finds every probe of the history through the recall tool, none in an empty one, no pin', async () => {
    const run = await runProbeChat({
      summarizer: { ask: gist, model: 'm', numCtx: 2048 },
      numCtx: 2048,
      compaction: DEFAULT_CONFIG.compaction,
      rounds: 6,
    });
    const inHistory = PROBES.filter((p) => p.recallQuery !== undefined);
    expect(inHistory).toHaveLength(PROBES.length - 2);
    for (const probe of inHistory) expect(recallReaches(probe, run.transcript)).toBe(true);
    for (const probe of PROBES) expect(recallReaches(probe, [])).toBe(false);
  });
});
