import fc from 'fast-check';
import type { CompactionRecord } from '../../src/conversation/compaction-record.js';
import type { Message, ToolCall } from '../../src/conversation/message.js';

/** One tool call of a generated turn: its name, its output and (maybe) its summary line. */
export interface ToolStep {
  name: string;
  output: string;
  summary?: string;
}

/** A generated turn: the user's text, then assistant replies and tool-call rounds in order. */
export interface TurnSpec {
  user: string;
  steps: ({ reply: string; thinking?: string } | { tools: ToolStep[] })[];
}

/** Builds a transcript from turn specs: ids and turns numbered, fixed timestamps. */
export function buildTranscript(turns: readonly TurnSpec[]): Message[] {
  const out: Message[] = [];
  const push = (turn: number, m: Omit<Message, 'id' | 'turn' | 'at'>) =>
    out.push({ id: out.length + 1, turn, at: '2026-01-01T00:00:00.000Z', ...m });
  turns.forEach((spec, turn) => {
    push(turn, { role: 'user', content: spec.user });
    for (const step of spec.steps) {
      if ('reply' in step) {
        push(turn, {
          role: 'assistant',
          content: step.reply,
          ...(step.thinking ? { thinking: step.thinking } : {}),
        });
        continue;
      }
      const calls: ToolCall[] = step.tools.map((t, i) => ({
        function: { index: i, name: t.name, arguments: { n: i } },
      }));
      push(turn, { role: 'assistant', content: '', tool_calls: calls });
      for (const t of step.tools) {
        push(turn, {
          role: 'tool',
          content: t.output,
          tool_name: t.name,
          ...(t.summary ? { tool_summary: t.summary } : {}),
        });
      }
    }
  });
  return out;
}

/** A short message like "m1" of the given length. */
export function text(length: number, fill = 'x'): string {
  return fill.repeat(length);
}

const words = fc.string({ minLength: 0, maxLength: 400 });
const toolStep: fc.Arbitrary<ToolStep> = fc.record(
  {
    name: fc.constantFrom('read_file', 'run_command', 'write_file', 'search'),
    output: fc.nat({ max: 3000 }).map((n) => text(n, 'o')),
    summary: fc.string({ minLength: 1, maxLength: 60 }),
  },
  { requiredKeys: ['name', 'output'] },
);

/** Random turns of random sizes: replies, thinking, and tool-call rounds. */
export const turnArb: fc.Arbitrary<TurnSpec> = fc.record({
  user: words,
  steps: fc.array(
    fc.oneof(
      fc.record(
        { reply: words, thinking: fc.option(words, { nil: undefined }) },
        { requiredKeys: ['reply'] },
      ),
      fc.record({ tools: fc.array(toolStep, { minLength: 1, maxLength: 3 }) }),
    ),
    { minLength: 0, maxLength: 4 },
  ),
});

/** Random transcripts of 1–14 turns. */
export const transcriptArb: fc.Arbitrary<Message[]> = fc
  .array(turnArb, { minLength: 1, maxLength: 14 })
  .map(buildTranscript);

/** Freezes a value and everything in it, so a mutation throws in strict mode. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** A compaction record with placeholder facts: only `upto` (and what `overrides` sets) matters. */
export function compactionRecord(upto: number, overrides: Partial<CompactionRecord> = {}): CompactionRecord {
  return {
    upto,
    narrative: 'n',
    toolEntries: [],
    model: 'm',
    at: '',
    tokensBefore: 0,
    tokensAfter: 0,
    ...overrides,
  };
}

/** Indices of every turn start (user message), ascending: the oracle the property tests check boundaries against. */
export function turnStartIndices(transcript: readonly Message[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i < transcript.length; i++) if (transcript[i].role === 'user') starts.push(i);
  return starts;
}
