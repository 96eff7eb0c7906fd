import { describe, expect, it } from 'vitest';
import { AbortSlot, LATE_CANCEL_MS, SEEN_WORK_MS } from '../../../src/chat/state/abort-slot.js';

/** A slot on a clock moved by hand, whose "the loop is free" comes when the test says so. */
function slotOnClock() {
  const clock = { now: 0 };
  let free: (() => void) | undefined;
  const slot = new AbortSlot(
    () => clock.now,
    (then) => {
      free = then;
      return () => {
        free = undefined;
      };
    },
  );
  return { clock, slot, loopFree: () => free?.() };
}

describe('AbortSlot', () => {
  it('cancels the work in progress, inner and outer', () => {
    const slot = new AbortSlot(() => 0);
    const outer = slot.begin();
    const inner = slot.begin();
    expect(slot.cancel()).toBe(true);
    expect([outer.signal.aborted, inner.signal.aborted]).toEqual([true, true]);
  });

  it('takes a Ctrl+C read before the loop is free after long work ended as its cancel, however long that takes', () => {
    const { clock, slot, loopFree } = slotOnClock();
    slot.begin();
    clock.now += 3000;
    slot.end();
    // The end's last steps and its frame run 5 s (a slow machine): keys pressed meanwhile wait.
    clock.now += 5000;
    expect(slot.cancel()).toBe(true);
    loopFree();
    clock.now += LATE_CANCEL_MS - 1;
    expect(slot.cancel()).toBe(true);
    clock.now += 1;
    expect(slot.cancel()).toBe(false);
  });

  it('leaves a Ctrl+C just after quick work (connecting as the chat opens) to mean what it says', () => {
    const { clock, slot, loopFree } = slotOnClock();
    slot.begin();
    clock.now += SEEN_WORK_MS - 1;
    slot.end();
    loopFree();
    clock.now += 10;
    expect(slot.cancel()).toBe(false);
  });

  it('counts nested work from the outermost begin, and waits for the outermost end', () => {
    const { clock, slot, loopFree } = slotOnClock();
    slot.begin();
    clock.now += SEEN_WORK_MS;
    slot.begin();
    slot.end();
    loopFree();
    const outerStillRuns = slot.cancel();
    expect(outerStillRuns).toBe(true);
    slot.end();
    loopFree();
    clock.now += LATE_CANCEL_MS;
    expect(slot.cancel()).toBe(false);
  });
});
