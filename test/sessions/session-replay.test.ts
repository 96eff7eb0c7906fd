import { describe, expect, test } from 'vitest';
import { replaySession } from '../../src/sessions/session-replay.js';
import { HEADER, message, record } from './fixtures.js';

const at = '2026-12-03T06:02:00.000Z';

describe('replaySession', () => {
  test('starts from the header settings and applies every setting line in order', () => {
    const state = replaySession(HEADER, [
      { type: 'setting', at, key: 'system', value: 'Be long.' },
      { type: 'setting', at, key: 'options', value: { temperature: 0.9, num_ctx: 4096 } },
      { type: 'setting', at, key: 'model', value: 'qwen3' },
      { type: 'setting', at, key: 'num_ctx', value: 4096 },
      { type: 'setting', at, key: 'think', value: 'high' },
      { type: 'setting', at, key: 'name', value: 'n' },
      { type: 'setting', at, key: 'system', value: null },
    ]);
    expect(state.settings).toEqual({
      model: 'qwen3',
      numCtx: 4096,
      system: undefined,
      options: { temperature: 0.9, num_ctx: 4096 },
      think: 'high',
      name: 'n',
    });
  });

  test('compactions stack; /uncompact puts the previous record back in force; every attempt is kept', () => {
    const state = replaySession(HEADER, [
      message(1, 'user', 'a'),
      message(2, 'assistant', 'b'),
      { type: 'compaction', record: record(2) },
      { type: 'compaction-failed', at, trigger: 'auto', reason: 'server down' },
      { type: 'compaction', record: record(4) },
      { type: 'uncompact', at },
    ]);
    expect(state.messages.map((m) => m.content)).toEqual(['a', 'b']);
    expect(state.records).toEqual([record(2)]);
    expect(state.attempts.map((a) => a.ok)).toEqual([true, false, true]);
    expect(state.uncompacted).toEqual([at]);
  });

  test('replaced replies are remembered by id', () => {
    const state = replaySession(HEADER, [{ type: 'replaced', at, ids: [2, 3] }]);
    expect([...state.replaced]).toEqual([2, 3]);
  });

  test('marks replaced messages, so the model view leaves them out after a resume', () => {
    const state = replaySession(HEADER, [
      message(1, 'user', 'q'),
      message(2, 'assistant', 'old'),
      { type: 'replaced', at, ids: [2] },
      message(3, 'assistant', 'new'),
    ]);
    expect(state.messages.map((m) => [m.content, m.replaced ?? false])).toEqual([
      ['q', false],
      ['old', true],
      ['new', false],
    ]);
  });

  test('the tool outputs sent shortened: message id → chars of head, the last line wins, bad entries dropped', () => {
    const state = replaySession(HEADER, [
      { type: 'setting', at, key: 'shortened', value: { 3: 100 } },
      { type: 'setting', at, key: 'shortened', value: { 3: 80, 7: 0, x: 5, 9: -1, 11: 'y' } },
    ]);
    expect(state.settings.shortened).toEqual({ 3: 80, 7: 0 });
    expect(
      replaySession(HEADER, [{ type: 'setting', at, key: 'shortened', value: [1] }]).settings.shortened,
    ).toBeUndefined();
  });

  test('the tools and the meter: the last valid line wins; a malformed meter is dropped', () => {
    const meter = { charsPerToken: 3.5, anchor: { tokens: 900, transcriptLength: 4, recordCount: 1 } };
    const state = replaySession(HEADER, [
      { type: 'setting', at, key: 'tools', value: { run_command: false, read_file: true, odd: 'x' } },
      { type: 'setting', at, key: 'meter', value: meter },
    ]);
    expect(state.settings.tools).toEqual({ run_command: false, read_file: true });
    expect(state.settings.meter).toEqual(meter);
    const reset = replaySession(HEADER, [
      { type: 'setting', at, key: 'meter', value: meter },
      { type: 'setting', at, key: 'meter', value: { charsPerToken: 3 } },
    ]);
    expect(reset.settings.meter).toEqual({ charsPerToken: 3 });
    for (const bad of [null, { charsPerToken: 0 }, { charsPerToken: 'x' }, 5])
      expect(
        replaySession(HEADER, [{ type: 'setting', at, key: 'meter', value: bad }]).settings.meter,
      ).toBeUndefined();
    expect(
      replaySession(HEADER, [
        { type: 'setting', at, key: 'meter', value: { charsPerToken: 3, anchor: { tokens: -1 } } },
      ]).settings.meter,
    ).toEqual({ charsPerToken: 3 });
  });

  test("the meter's word on the template's tool definitions is kept when it is a boolean", () => {
    const meterOf = (value: unknown) =>
      replaySession(HEADER, [{ type: 'setting', at, key: 'meter', value }]).settings.meter;
    expect(meterOf({ charsPerToken: 3, rendersTools: false })).toEqual({
      charsPerToken: 3,
      rendersTools: false,
    });
    expect(
      meterOf({
        charsPerToken: 3,
        anchor: { tokens: 9, transcriptLength: 2, recordCount: 0 },
        rendersTools: true,
      }),
    ).toEqual({
      charsPerToken: 3,
      anchor: { tokens: 9, transcriptLength: 2, recordCount: 0 },
      rendersTools: true,
    });
    expect(meterOf({ charsPerToken: 3, rendersTools: 'no' })).toEqual({ charsPerToken: 3 });
  });
});
