/**
 * Tests wait on a condition, never on the clock: a fixed sleep is too short on a loaded machine
 * and too long on an idle one. The deadline only bounds a test that would otherwise hang, so it is
 * generous: a slow machine makes a test slower, not red.
 */

/** How to wait. */
export interface WaitOptions {
  /** Default 10 s. */
  timeoutMs?: number;
  /** How often the condition is checked besides on `onChange` (default 20 ms). */
  pollMs?: number;
  /** What there was instead, for the error (e.g. the screen). */
  describe?: () => string;
  /** Subscribes to changes that may make the condition true (returns the unsubscribe): checked after each. */
  onChange?: (changed: () => void) => () => void;
}

/** Resolves once `condition()` holds; rejects after the deadline, naming `what` was awaited. */
export async function waitUntil(
  what: string,
  condition: () => boolean,
  options: WaitOptions = {},
): Promise<void> {
  const { timeoutMs = 10_000, pollMs = 20, describe, onChange } = options;
  if (condition()) return;
  const deadline = Date.now() + timeoutMs;
  let wake: (() => void) | undefined;
  const unsubscribe = onChange?.(() => wake?.());
  try {
    while (!condition()) {
      if (Date.now() > deadline) {
        throw new Error(
          `Timed out after ${timeoutMs} ms waiting for ${what}.${describe ? `\n${describe()}` : ''}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    unsubscribe?.();
  }
}

/**
 * The one fixed pause tests may take, for what no condition can show: a window in which something
 * must NOT happen (a wrongly taken key running a command), or a person's timing (a typist, two
 * separate key presses, a reply interrupted mid-stream). `why` says which, where it is called; a
 * pause that waits for something to happen is a `waitUntil` instead (test/build/test-hygiene.test.ts).
 */
export function deliberatePause(ms: number, why: string): Promise<void> {
  if (why.trim() === '') throw new Error('deliberatePause: say why the pause cannot be a condition');
  return new Promise((resolve) => setTimeout(resolve, ms));
}
