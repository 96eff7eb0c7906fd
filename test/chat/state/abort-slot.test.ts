import { describe, expect, it } from 'vitest';
import { AbortSlot, LATE_CANCEL_MS } from '../../../src/chat/state/abort-slot.js';

describe('AbortSlot', () => {
  it('cancels the work in progress, inner and outer', () => {
    const slot = new AbortSlot(() => 0);
    const outer = slot.begin();
    const inner = slot.begin();
    expect(slot.cancel()).toBe(true);
    expect([outer.signal.aborted, inner.signal.aborted]).toEqual([true, true]);
  });

  it('takes a Ctrl+C just after long work ended as its cancel (a long step held the key back), not later', () => {
    let now = 0;
    const slot = new AbortSlot(() => now);
    slot.begin();
    now += 3000;
    slot.end();
    now += LATE_CANCEL_MS - 1;
    expect(slot.cancel()).toBe(true);
    now += 1;
    expect(slot.cancel()).toBe(false);
  });

  it('leaves a Ctrl+C just after quick work (connecting as the chat opens) to mean what it says', () => {
    let now = 0;
    const slot = new AbortSlot(() => now);
    slot.begin();
    now += 50;
    slot.end();
    now += 10;
    expect(slot.cancel()).toBe(false);
  });
});
