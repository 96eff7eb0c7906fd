/**
 * Resolves after the event loop has had a turn (timers, key presses, signals): long synchronous
 * work on a big text awaits it between its steps, so a Ctrl+C or a SIGHUP is handled at once.
 */
export function eventLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
