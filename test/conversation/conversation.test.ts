import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/conversation/conversation.js';
import { compactionRecord as record } from './fixtures.js';

const AT = new Date('2026-12-03T07:30:00.000Z');

describe('Conversation', () => {
  it('starts empty', () => {
    const conversation = new Conversation(() => AT);
    expect(conversation.transcript).toEqual([]);
    expect(conversation.records).toEqual([]);
    expect(conversation.latestRecord).toBeUndefined();
    expect(conversation.lastThinking()).toBeUndefined();
  });

  it('numbers messages from 1, stamps them with their turn and time, in order', () => {
    const conversation = new Conversation(() => AT);
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'hi' });
    conversation.append({ role: 'assistant', content: 'hello' });
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'again' });
    expect(conversation.transcript).toEqual([
      { role: 'user', content: 'hi', id: 1, turn: 1, at: AT.toISOString() },
      { role: 'assistant', content: 'hello', id: 2, turn: 1, at: AT.toISOString() },
      { role: 'user', content: 'again', id: 3, turn: 2, at: AT.toISOString() },
    ]);
  });

  it('keeps every compaction record; the newest is in force', () => {
    const conversation = new Conversation(() => AT);
    conversation.addRecord(record(2));
    conversation.addRecord(record(5));
    expect(conversation.records.map((r) => r.upto)).toEqual([2, 5]);
    expect(conversation.latestRecord?.upto).toBe(5);
  });

  it('finds the thinking of the newest assistant message that has any', () => {
    const conversation = new Conversation(() => AT);
    conversation.startTurn();
    conversation.append({ role: 'assistant', content: 'a', thinking: 'first thought' });
    conversation.append({ role: 'user', content: 'b', thinking: 'not an assistant' } as never);
    conversation.append({ role: 'assistant', content: 'c', thinking: 'second thought' });
    conversation.append({ role: 'assistant', content: 'd' });
    expect(conversation.lastThinking()).toBe('second thought');
  });

  it('clear() starts over: no messages, no records, turns from 1, while ids keep counting', () => {
    const conversation = new Conversation(() => AT);
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'old' });
    conversation.addRecord(record(1));
    conversation.clear();
    expect(conversation.transcript).toEqual([]);
    expect(conversation.records).toEqual([]);
    expect(conversation.latestRecord).toBeUndefined();
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'new' });
    expect(conversation.transcript).toEqual([
      { role: 'user', content: 'new', id: 2, turn: 1, at: AT.toISOString() },
    ]);
  });

  it("replaceLastReplies() marks the newest turn's assistant and tool messages, once, and tells the listener", () => {
    const conversation = new Conversation(() => AT);
    const told: number[][] = [];
    conversation.listen({
      messageAppended: () => {},
      recordAdded: () => {},
      repliesReplaced: (ids) => told.push(ids),
    });
    expect(conversation.replaceLastReplies()).toEqual([]);
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'old' });
    conversation.append({ role: 'assistant', content: 'kept' });
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'q' });
    conversation.append({
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: 't', arguments: {} } }],
    });
    conversation.append({ role: 'tool', content: 'out', tool_name: 't' });
    conversation.append({ role: 'assistant', content: 'a' });
    expect(conversation.replaceLastReplies()).toEqual([4, 5, 6]);
    expect(conversation.transcript.map((m) => m.replaced ?? false)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(conversation.lastUserMessage()?.content).toBe('q');
    conversation.append({ role: 'assistant', content: 'b' });
    expect(conversation.replaceLastReplies()).toEqual([7]);
    expect(told).toEqual([[4, 5, 6], [7]]);
  });
});
