/** A probe timer later than this past its time: the loop was busy, and keys typed meanwhile waited unread. */
const BUSY_LAG_MS = 30;

/**
 * Each probe waits longer than a render throttle (Ink draws at most every 34 ms), so a frame that
 * what came before scheduled is drawn before the probe can fire.
 */
const PROBE_MS = 50;

/**
 * Calls `then` once a probe timer fires on time: the synchronous work queued before (a long step,
 * the frame it caused) has run, and what the terminal held meanwhile has been read. Returns a
 * function that stops waiting. The timers never keep the process alive.
 */
export function whenLoopFree(
  then: () => void,
  now: () => number = performance.now.bind(performance),
): () => void {
  let timer: NodeJS.Timeout | undefined;
  const probe = () => {
    const due = now() + PROBE_MS;
    timer = setTimeout(() => {
      if (now() - due > BUSY_LAG_MS) probe();
      else then();
    }, PROBE_MS);
    timer.unref();
  };
  probe();
  return () => clearTimeout(timer);
}
