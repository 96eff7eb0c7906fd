/**
 * Decides which keys answer an open y/n dialog. An answer must be deliberate: its key pressed on
 * its own (not inside a burst of typed-ahead text or a paste), after the keyboard has rested a
 * moment since the dialog appeared and since the last key typed. Everything else is typing and
 * goes to the prompt, so a `y` inside "why is it slow" never approves a tool. Esc and Ctrl+C
 * always answer no.
 */
import type { Key } from 'ink';

/** How long the keyboard must rest before a key may answer (typing rhythm is ~100–250 ms a key). */
export const DIALOG_QUIET_MS = 500;

/** One input event as Ink delivers it, with whether it falls inside a bracketed paste. */
export interface DialogKeyEvent {
  input: string;
  key: Pick<Key, 'ctrl' | 'meta' | 'escape'>;
  pasting: boolean;
}

/** What an input event does while a dialog is open. */
export type DialogKeyOutcome =
  /** Answers the dialog with this key. */
  | { kind: 'answer'; key: string }
  /** Goes to the prompt editor as typing. */
  | { kind: 'type' }
  /** Nothing (e.g. Ctrl+D, which would quit). */
  | { kind: 'ignore' };

/** Tracks the keyboard's rests for one dialog at a time. */
export interface DialogKeyGate {
  /** A dialog opened: the rest starts now. */
  open(): void;
  /** A key went to the prompt while no dialog was open: typing that may run on into one. */
  typed(): void;
  /** What `event` does, given the keys that answer the open dialog. */
  classify(event: DialogKeyEvent, answers: readonly string[]): DialogKeyOutcome;
}

/** Creates a gate reading time from `now` (injected for tests). */
export function createDialogKeyGate(now: () => number = Date.now, quietMs = DIALOG_QUIET_MS): DialogKeyGate {
  let lastActivity = Number.NEGATIVE_INFINITY;
  return {
    open() {
      lastActivity = now();
    },
    typed() {
      lastActivity = now();
    },
    classify({ input, key, pasting }, answers) {
      const decline = answers.includes('n') ? 'n' : undefined;
      if (!pasting && (key.escape || (key.ctrl && input === 'c'))) {
        return decline ? { kind: 'answer', key: decline } : { kind: 'ignore' };
      }
      if (!pasting && key.ctrl && input === 'd') return { kind: 'ignore' };
      const time = now();
      const rested = time - lastActivity >= quietMs;
      lastActivity = time;
      const single = [...input].length === 1 && !pasting && !key.ctrl && !key.meta;
      const answer = input.toLowerCase();
      if (single && rested && answers.includes(answer)) return { kind: 'answer', key: answer };
      return { kind: 'type' };
    },
  };
}
