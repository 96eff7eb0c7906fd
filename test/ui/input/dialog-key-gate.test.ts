import { describe, expect, it } from 'vitest';
import { createDialogKeyGate, DIALOG_QUIET_MS } from '../../../src/ui/input/dialog-key-gate.js';

const KEYS = ['y', 'n', 'a', 'i'];
const plain = { ctrl: false, meta: false, escape: false };

function gateAt(start = 0) {
  const clock = { time: start };
  const gate = createDialogKeyGate(() => clock.time);
  const press = (input: string, after: number, extra: Partial<typeof plain> = {}, pasting = false) => {
    clock.time += after;
    return gate.classify({ input, key: { ...plain, ...extra }, pasting }, KEYS);
  };
  return { gate, clock, press };
}

describe('createDialogKeyGate', () => {
  it('takes a key pressed alone after a rest as the answer', () => {
    const { gate, press } = gateAt();
    gate.open();
    expect(press('Y', DIALOG_QUIET_MS)).toEqual({ kind: 'answer', key: 'y' });
  });

  it('treats a key right after the dialog opened, or after another key, as typing', () => {
    const { gate, press } = gateAt();
    gate.open();
    expect(press('y', 100)).toEqual({ kind: 'type' });
    // The rejected key was typing too: the rest starts again from it.
    expect(press('y', DIALOG_QUIET_MS - 1)).toEqual({ kind: 'type' });
    expect(press('y', DIALOG_QUIET_MS)).toEqual({ kind: 'answer', key: 'y' });
  });

  it('counts typing from before the dialog opened', () => {
    const { gate, press, clock } = gateAt();
    gate.open();
    clock.time += 10_000;
    gate.typed();
    expect(press('a', 200)).toEqual({ kind: 'type' });
  });

  it('never answers from a burst, a paste, a modified key or a key that is not an answer', () => {
    const { gate, press } = gateAt();
    gate.open();
    expect(press('yes', 10_000)).toEqual({ kind: 'type' });
    expect(press('y', 10_000, {}, true)).toEqual({ kind: 'type' });
    expect(press('y', 10_000, { meta: true })).toEqual({ kind: 'type' });
    expect(press('x', 10_000)).toEqual({ kind: 'type' });
  });

  it('Esc and Ctrl+C decline at once; Ctrl+D does nothing', () => {
    const { gate, press } = gateAt();
    gate.open();
    expect(press('', 0, { escape: true })).toEqual({ kind: 'answer', key: 'n' });
    expect(press('c', 0, { ctrl: true })).toEqual({ kind: 'answer', key: 'n' });
    expect(press('d', 0, { ctrl: true })).toEqual({ kind: 'ignore' });
  });
});
