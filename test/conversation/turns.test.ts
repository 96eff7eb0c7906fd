import { describe, expect, it } from 'vitest';
import { lastTurnStart } from '../../src/conversation/turns.js';
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
