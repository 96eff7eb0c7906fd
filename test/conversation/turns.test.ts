import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/conversation/message.js';
import { lastTurnStart, unansweredToolCalls } from '../../src/conversation/turns.js';
import { buildTranscript } from './fixtures.js';

const transcript = buildTranscript([
  { user: 'a', steps: [{ tools: [{ name: 'read_file', output: 'x' }] }, { reply: 'done' }] },
  { user: 'b', steps: [{ reply: 'ok' }] },
  { user: 'c', steps: [] },
]);

describe('turns', () => {
  it('finds the newest turn', () => {
    expect(lastTurnStart(transcript)).toBe(6);
    expect(lastTurnStart([])).toBe(-1);
    expect(lastTurnStart(transcript.slice(1, 4))).toBe(-1);
  });
});

describe('lastTurnStart at the edges', () => {
  it('finds a user message at index 0', () => {
    const [user] = buildTranscript([{ user: 'only', steps: [] }]);
    expect(lastTurnStart([user])).toBe(0);
  });
});

describe('unansweredToolCalls', () => {
  const at = '2026-12-03T06:00:00.000Z';
  const call = (name: string) => ({ function: { name, arguments: {} } });
  const user: Message = { id: 1, turn: 1, role: 'user', content: 'go', at };
  const calls: Message = {
    id: 2,
    turn: 1,
    role: 'assistant',
    content: '',
    tool_calls: [call('a'), call('b')],
    at,
  };
  const result: Message = { id: 3, turn: 1, role: 'tool', content: 'ok', tool_name: 'a', at };

  it('are the calls of the newest assistant message that no result follows', () => {
    expect(unansweredToolCalls([user, calls])).toEqual([call('a'), call('b')]);
    expect(unansweredToolCalls([user, calls, result])).toEqual([call('b')]);
    expect(unansweredToolCalls([user, calls, result, { ...result, id: 4, tool_name: 'b' }])).toEqual([]);
  });

  it('are none after a reply, a user message, or in a transcript without calls', () => {
    expect(unansweredToolCalls([user, calls, result, { ...user, id: 9 }])).toEqual([]);
    expect(unansweredToolCalls([user])).toEqual([]);
    expect(unansweredToolCalls(transcript)).toEqual([]);
  });
});
