import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_SMOOTHING,
  calibrateCharsPerToken,
  calibrationSampleFor,
} from '../../src/conversation/calibration.js';
import { ContextMeter, type ReplyCounts } from '../../src/conversation/context-meter.js';
import type { WireMessage } from '../../src/conversation/message.js';
import {
  estimateMessagesTokens,
  estimateToolDefinitionsTokens,
  MESSAGE_OVERHEAD_TOKENS,
} from '../../src/conversation/token-estimate.js';

const NUM_CTX = 8192;

function counts(view: WireMessage[], promptEvalCount: number, extra: Partial<ReplyCounts> = {}): ReplyCounts {
  return {
    view,
    tools: [],
    promptEvalCount,
    evalCount: 50,
    transcriptLength: view.length,
    recordCount: 0,
    ...extra,
  };
}

const user = (content: string): WireMessage => ({ role: 'user', content });
const assistant = (content: string): WireMessage => ({ role: 'assistant', content });

describe('ContextMeter.recordReply calibration', () => {
  it('learns chars per token from the server count of what was sent', () => {
    const view = [user('a'.repeat(3000)), assistant('b'.repeat(3000))];
    const meter = new ContextMeter(4);
    // 6000 chars were 2000 tokens of text plus the template overhead: 3 chars per token.
    const promptEvalCount = 2000 + 2 * MESSAGE_OVERHEAD_TOKENS;
    expect(meter.recordReply(counts(view, promptEvalCount), NUM_CTX)).toBeUndefined();
    expect(meter.charsPerToken).toBeCloseTo(4 + (3 - 4) * CALIBRATION_SMOOTHING, 10);
  });

  it('does not learn from a request carrying images: their real cost is the model’s, unknown here', () => {
    const view: WireMessage[] = [
      { role: 'user', content: 'Décris cette image. '.repeat(200), images: ['aGk='] },
    ];
    const meter = new ContextMeter(3.5);
    meter.recordReply(counts(view, 1200), NUM_CTX);
    expect(meter.charsPerToken).toBe(3.5);
    // The server's count still anchors what the meter shows.
    expect(meter.used(() => 0, view, 0)).toBe(1200 + counts(view, 1200).evalCount);
  });

  it('uses the same sample as calibrationSampleFor: weighted chars and tool calls', () => {
    const view: WireMessage[] = [
      { role: 'system', content: 'Réponds en français, toujours.' },
      { role: 'user', content: 'Décris ce fichier en détail. '.repeat(40) },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'read_file', arguments: { path: 'src/élément.ts' } } }],
      },
      { role: 'tool', tool_name: 'read_file', content: 'export const x = 1;\n'.repeat(60) },
    ];
    const promptEvalCount = 1500;
    const meter = new ContextMeter(3.5);
    meter.recordReply(counts(view, promptEvalCount), NUM_CTX);
    const expected = calibrateCharsPerToken(3.5, calibrationSampleFor(view, promptEvalCount));
    expect(meter.charsPerToken).toBeCloseTo(expected, 12);
    const sample = calibrationSampleFor(view, promptEvalCount);
    expect(sample.tokens).toBe(promptEvalCount - 4 * MESSAGE_OVERHEAD_TOKENS);
    // Multi-byte text counts in bytes (the estimator's unit), not UTF-16 code units.
    expect(sample.chars).toBeGreaterThan(view.reduce((n, m) => n + m.content.length, 0));
  });

  it('keeps the ratio when the sample is too small or the count is over the window', () => {
    const meter = new ContextMeter(3.2);
    meter.recordReply(counts([user('hi')], 12), NUM_CTX);
    expect(meter.charsPerToken).toBe(3.2);
    meter.recordReply(counts([user('x'.repeat(40_000))], NUM_CTX + 1), NUM_CTX);
    expect(meter.charsPerToken).toBe(3.2);
    meter.recordReply(counts([user('x'.repeat(4000))], 0), NUM_CTX);
    expect(meter.charsPerToken).toBe(3.2);
  });
});

describe('ContextMeter.recordReply truncation', () => {
  // ~9000 estimated tokens at 4 chars/token: more than the window.
  const big = [user('x'.repeat(18_000)), assistant('y'.repeat(18_000))];

  it('reports a truncation when the server saw well under what was sent near the window', () => {
    const meter = new ContextMeter(4);
    const sent = estimateMessagesTokens(big, 4);
    expect(sent).toBeGreaterThan(NUM_CTX);
    const truncation = meter.recordReply(counts(big, 4600), NUM_CTX);
    expect(truncation).toEqual({ sentTokens: sent, evaluatedTokens: 4600 });
    // A truncated count says nothing about the tokenizer.
    expect(meter.charsPerToken).toBe(4);
  });

  it('does not call a low count far below the window a truncation', () => {
    const meter = new ContextMeter(4);
    const small = [user('x'.repeat(4000))];
    expect(meter.recordReply(counts(small, 300), NUM_CTX)).toBeUndefined();
  });

  it('a server that counts the whole prompt (OpenAI usage) cut it wherever its count falls a quarter short', () => {
    const small = [user('x'.repeat(4000))]; // ~1000 tokens sent, far below the window
    const sent = estimateMessagesTokens(small, 4);
    expect(new ContextMeter(4).recordReply(counts(small, 300, { wholePrompt: true }), NUM_CTX)).toEqual({
      sentTokens: sent,
      evaluatedTokens: 300,
    });
    // Within the margin an estimate not yet calibrated may be off by: no truncation.
    expect(
      new ContextMeter(4).recordReply(counts(small, Math.ceil(sent * 0.8), { wholePrompt: true }), NUM_CTX),
    ).toBeUndefined();
  });

  it("a whole-prompt count below the tool definitions' estimate is no cut: a chat template may not render them", () => {
    // llama-server's chatml renders no tools: 576 tokens estimated with them, 33 counted.
    const view = [user('Hello there, tiny model.')];
    const tools = [{ type: 'function', function: { name: 'read_file', description: 'x'.repeat(2000) } }];
    const meter = new ContextMeter(4);
    expect(meter.recordReply(counts(view, 10, { wholePrompt: true, tools }), NUM_CTX)).toBeUndefined();
    // A count a quarter short of the messages alone still is one.
    const long = [user('x'.repeat(4000))];
    expect(meter.recordReply(counts(long, 300, { wholePrompt: true, tools }), NUM_CTX)).toBeDefined();
  });

  it('once a count held the tool definitions, a count a quarter short of messages and tools is a cut', () => {
    const view = [user('x'.repeat(4000))];
    const tools = [{ type: 'function', function: { name: 'read_file', description: 'x'.repeat(2000) } }];
    const meter = new ContextMeter(4);
    const messages = estimateMessagesTokens(view, 4);
    const all = messages + estimateToolDefinitionsTokens(tools, 4);
    // Short of messages and tools but not of the messages: no cut while the template may not render tools…
    const short = Math.ceil(messages * 0.9);
    expect(meter.recordReply(counts(view, short, { wholePrompt: true, tools }), NUM_CTX)).toBeUndefined();
    // …and one once a count showed it does.
    expect(meter.recordReply(counts(view, all, { wholePrompt: true, tools }), NUM_CTX)).toBeUndefined();
    expect(meter.recordReply(counts(view, short, { wholePrompt: true, tools }), NUM_CTX)).toBeDefined();
  });

  it('says whether the template renders the tool definitions: unknown, then what a count of the whole prompt showed', () => {
    const view = [user('x'.repeat(4000))];
    const tools = [{ type: 'function', function: { name: 'read_file', description: 'x'.repeat(2000) } }];
    const messages = estimateMessagesTokens(view, 4);
    const meter = new ContextMeter(4);
    expect(meter.rendersTools).toBeUndefined();
    // Ollama's count may be low for other reasons (a cut near the window): it teaches nothing.
    meter.recordReply(counts(view, messages, { tools }), NUM_CTX);
    expect(meter.rendersTools).toBeUndefined();
    // llama-server's chatml: the whole prompt counted, no room for the definitions in it.
    meter.recordReply(counts(view, messages, { wholePrompt: true, tools }), NUM_CTX);
    expect(meter.rendersTools).toBe(false);
    meter.recordReply(
      counts(view, messages + estimateToolDefinitionsTokens(tools, 4), { wholePrompt: true, tools }),
      NUM_CTX,
    );
    expect(meter.rendersTools).toBe(true);
    meter.reset(4);
    expect(meter.rendersTools).toBeUndefined();
  });

  it('after a truncation, counts what the next request resends, not what the server kept', () => {
    const meter = new ContextMeter(4);
    meter.recordReply(counts(big, 4600, { evalCount: 40 }), NUM_CTX);
    const sent = estimateMessagesTokens(big, 4);
    expect(meter.used(() => estimateMessagesTokens(big, meter.charsPerToken), big, 0)).toBe(sent + 40);
  });
});

describe('ContextMeter with tool definitions', () => {
  const tools = [{ type: 'function', function: { name: 'read_file', description: 'x'.repeat(400) } }];

  it('counts the tool definitions in what was sent, so a full window is seen as full', () => {
    const view = [user('a'.repeat(3000))];
    const meter = new ContextMeter(4);
    const sent = estimateMessagesTokens(view, 4) + estimateToolDefinitionsTokens(tools, 4);
    // The server evaluated far less than messages + tools: a truncation near a window that small.
    const truncation = meter.recordReply({ ...counts(view, 100), tools }, sent);
    expect(truncation).toEqual({ sentTokens: sent, evaluatedTokens: 100 });
  });

  it('calibrates on messages and tool definitions together', () => {
    const view = [user('a'.repeat(3000))];
    const meter = new ContextMeter(4);
    const exact = estimateMessagesTokens(view, 4) + estimateToolDefinitionsTokens(tools, 4);
    meter.recordReply({ ...counts(view, exact), tools }, NUM_CTX);
    expect(meter.charsPerToken).toBeCloseTo(4, 1);
  });

  it('on a server whose template renders no tool definitions, calibrates on the messages alone', () => {
    // llama-server's chatml: 3000 chars of messages at 3 chars a token counted, the tools not at all.
    const view = [user('a'.repeat(3000))];
    const big = [{ type: 'function', function: { name: 'read_file', description: 'x'.repeat(4000) } }];
    const meter = new ContextMeter(4);
    meter.recordReply(
      { ...counts(view, 1000 + MESSAGE_OVERHEAD_TOKENS, { wholePrompt: true }), tools: big },
      NUM_CTX,
    );
    // With the definitions' 4000 chars in the sample it learnt 7 chars a token (4.9 smoothed): every later estimate ~40% short.
    expect(meter.charsPerToken).toBeCloseTo(4 + (3 - 4) * CALIBRATION_SMOOTHING, 10);
  });
});

describe('ContextMeter.used', () => {
  const view = [user('a'.repeat(3000)), assistant('b'.repeat(3000))];

  it('estimates the whole view before any reply', () => {
    const meter = new ContextMeter(4);
    expect(meter.used(() => estimateMessagesTokens(view, meter.charsPerToken), view, 0)).toBe(
      estimateMessagesTokens(view, 4),
    );
  });

  it('is the server count plus an estimate of the messages appended since', () => {
    const meter = new ContextMeter(4);
    meter.recordReply(counts(view, 1508, { evalCount: 700, transcriptLength: 2 }), NUM_CTX);
    const ratio = meter.charsPerToken;
    const later = [...view, user('c'.repeat(400))];
    expect(meter.used(() => estimateMessagesTokens(later, meter.charsPerToken), later, 0)).toBe(
      1508 + 700 + estimateMessagesTokens([later[2]], ratio),
    );
    expect(meter.used(() => estimateMessagesTokens(view, meter.charsPerToken), view, 0)).toBe(1508 + 700);
  });

  it('falls back to estimating the view after a compaction or a shorter transcript', () => {
    const meter = new ContextMeter(4);
    meter.recordReply(counts(view, 1508, { transcriptLength: 2 }), NUM_CTX);
    const ratio = meter.charsPerToken;
    const compacted = [{ role: 'system', content: 'summary' } as WireMessage];
    expect(meter.used(() => estimateMessagesTokens(compacted, meter.charsPerToken), view, 1)).toBe(
      estimateMessagesTokens(compacted, ratio),
    );
    expect(meter.used(() => estimateMessagesTokens(compacted, meter.charsPerToken), [], 0)).toBe(
      estimateMessagesTokens(compacted, ratio),
    );
  });

  it('forgets the server count on reset', () => {
    const meter = new ContextMeter(4);
    meter.recordReply(counts(view, 1508, { evalCount: 700 }), NUM_CTX);
    meter.reset(2);
    expect(meter.charsPerToken).toBe(2);
    expect(meter.used(() => estimateMessagesTokens(view, meter.charsPerToken), view, 0)).toBe(
      estimateMessagesTokens(view, 2),
    );
  });

  describe('ContextMeter state', () => {
    it('tells every change (a reply, a reset) and restores a saved state without telling', () => {
      const meter = new ContextMeter(4);
      const told: unknown[] = [];
      meter.onChange = (state) => told.push(state);
      meter.recordReply(counts([user('hi')], 100, { transcriptLength: 2 }), NUM_CTX);
      const saved = meter.state;
      expect(saved.anchor).toEqual({ tokens: 150, transcriptLength: 2, recordCount: 0 });
      expect(told).toEqual([saved]);
      const later = [user('hi'), assistant('x'), user('next question')];
      const original = meter.used(() => 0, later, 0);
      expect(original).toBeGreaterThan(150);

      const resumed = new ContextMeter(9);
      resumed.onChange = () => told.push('restore');
      resumed.restore(saved);
      expect(resumed.state).toEqual(saved);
      expect(told).not.toContain('restore');
      // The same figure as the original: the server's count plus what was added since.
      expect(resumed.used(() => 0, later, 0)).toBe(original);

      meter.reset(3);
      expect(told.at(-1)).toEqual({ charsPerToken: 3 });
    });
  });
});

describe('ContextMeter.used after a view that changed, not only grew', () => {
  it('adds how far the request estimate moved since the count, so an output no longer shortened is counted in full', () => {
    const meter = new ContextMeter(4);
    const shortened = [user('read it'), { role: 'tool', content: 'x'.repeat(1000) } as WireMessage];
    const whole = [user('read it'), { role: 'tool', content: 'x'.repeat(20_000) } as WireMessage];
    let next = shortened;
    const estimate = () => estimateMessagesTokens(next, meter.charsPerToken);
    const exact = estimateMessagesTokens(shortened, 4);
    meter.recordReply(counts(shortened, exact, { estimateNext: estimate }), NUM_CTX);
    const counted = exact + 50;
    expect(meter.used(estimate, shortened, 0)).toBe(counted);
    next = whole;
    // The transcript did not grow: only the estimate's move says the next request is larger.
    expect(meter.used(estimate, shortened, 0)).toBe(
      counted + estimate() - estimateMessagesTokens(shortened, meter.charsPerToken),
    );
    expect(meter.used(estimate, shortened, 0)).toBeGreaterThan(counted + 4000);
  });
});
