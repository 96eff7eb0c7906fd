import { describe, expect, it } from 'vitest';
import { isTurnStart, lastTurnStart, turnStartIndices } from '../../src/conversation/turns.js';
import { buildTranscript } from './fixtures.js';

const transcript = buildTranscript([
  { user: 'a', steps: [{ tools: [{ name: 'read_file', output: 'x' }] }, { reply: 'done' }] },
  { user: 'b', steps: [{ reply: 'ok' }] },
  { user: 'c', steps: [] },
]);

describe('turns', () => {
  it('finds every user message as a turn start', () => {
    expect(turnStartIndices(transcript)).toEqual([0, 4, 6]);
    expect(turnStartIndices([])).toEqual([]);
  });

  it('finds the newest turn', () => {
    expect(lastTurnStart(transcript)).toBe(6);
    expect(lastTurnStart([])).toBe(-1);
    expect(lastTurnStart(transcript.slice(1, 4))).toBe(-1);
  });

  it('says whether an index starts a turn', () => {
    expect(isTurnStart(transcript, 0)).toBe(true);
    expect(isTurnStart(transcript, 1)).toBe(false);
    expect(isTurnStart(transcript, 2)).toBe(false);
    expect(isTurnStart(transcript, 4)).toBe(true);
    expect(isTurnStart(transcript, 99)).toBe(false);
  });
});

describe('lastTurnStart at the edges', () => {
  it('finds a user message at index 0', () => {
    const [user] = buildTranscript([{ user: 'only', steps: [] }]);
    expect(lastTurnStart([user])).toBe(0);
  });
});
