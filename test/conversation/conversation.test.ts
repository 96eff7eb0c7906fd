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

  it('tells its listener of every message and record appended, in order, until it stops listening', () => {
    const conversation = new Conversation(() => AT);
    const told: string[] = [];
    conversation.listen({
      messageAppended: (m) => told.push(`message ${m.id} ${m.content}`),
      recordAdded: (r) => told.push(`record ${r.upto}`),
      repliesReplaced: (ids) => told.push(`replaced ${ids}`),
    });
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'hi' });
    conversation.addRecord(record(1));
    conversation.listen(undefined);
    conversation.append({ role: 'assistant', content: 'unheard' });
    conversation.addRecord(record(2));
    expect(told).toEqual(['message 1 hi', 'record 1']);
    expect(conversation.transcript).toHaveLength(2);
  });

  it('a resumed history continues its ids and turns after the saved ones', () => {
    const saved = new Conversation(() => AT);
    saved.startTurn();
    saved.append({ role: 'user', content: 'one' });
    saved.append({ role: 'assistant', content: 'two' });
    saved.startTurn();
    saved.append({ role: 'user', content: 'three' });
    saved.addRecord(record(2));
    // Saved out of order: the highest id and turn count, not the last ones.
    const messages = [...saved.transcript].reverse();
    const resumed = new Conversation(() => AT);
    resumed.restore(messages, saved.records);
    expect(resumed.transcript).toEqual(messages);
    expect(resumed.latestRecord?.upto).toBe(2);
    resumed.append({ role: 'assistant', content: 'four' });
    resumed.startTurn();
    resumed.append({ role: 'user', content: 'five' });
    expect(resumed.transcript.slice(3).map((m) => [m.id, m.turn])).toEqual([
      [4, 2],
      [5, 3],
    ]);
    // The saved arrays stay the session's own: appending to the conversation does not touch them.
    expect(messages).toHaveLength(3);
    resumed.addRecord(record(4));
    expect(saved.records).toHaveLength(1);
  });

  it('restoring an empty history after a clear keeps counting ids', () => {
    const conversation = new Conversation(() => AT);
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'a' });
    conversation.restore([], []);
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'b' });
    expect(conversation.transcript.map((m) => [m.id, m.turn])).toEqual([[2, 1]]);
  });

  it('/uncompact drops the newest record: the one before is in force again, the transcript untouched', () => {
    const conversation = new Conversation(() => AT);
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'kept' });
    conversation.addRecord(record(1));
    conversation.addRecord(record(3));
    expect(conversation.dropLatestRecord()?.upto).toBe(3);
    expect(conversation.latestRecord?.upto).toBe(1);
    expect(conversation.transcript).toHaveLength(1);
    expect(conversation.dropLatestRecord()?.upto).toBe(1);
    expect(conversation.dropLatestRecord()).toBeUndefined();
  });

  it('/retry with no turn to answer again marks nothing and records nothing', () => {
    const conversation = new Conversation(() => AT);
    const told: number[][] = [];
    conversation.listen({
      messageAppended: () => {},
      recordAdded: () => {},
      repliesReplaced: (ids) => told.push(ids),
    });
    // A history that starts with a reply (a greeting, a hand-edited session) has no user turn.
    conversation.append({ role: 'assistant', content: 'Hello!' });
    expect(conversation.replaceLastReplies()).toEqual([]);
    expect(conversation.transcript[0].replaced).toBeUndefined();
    // A turn already retried has nothing left to mark: the session gets no empty line.
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'q' });
    conversation.append({ role: 'system', content: 'a stray system message' });
    conversation.append({ role: 'assistant', content: 'a' });
    expect(conversation.replaceLastReplies()).toEqual([4]);
    expect(conversation.replaceLastReplies()).toEqual([]);
    expect(told).toEqual([[4]]);
    expect(conversation.transcript.map((m) => m.replaced ?? false)).toEqual([false, false, false, true]);
  });

  it('/retry works without anyone listening', () => {
    const conversation = new Conversation(() => AT);
    conversation.startTurn();
    conversation.append({ role: 'user', content: 'q' });
    conversation.append({ role: 'assistant', content: 'a' });
    expect(conversation.replaceLastReplies()).toEqual([2]);
  });
});
