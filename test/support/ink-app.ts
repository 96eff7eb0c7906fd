/**
 * Waiting on an Ink app rendered by ink-testing-library: for what a key or a store change does to
 * its frame or its callbacks, instead of sleeping. Ink renders a key's effect a moment after the
 * key (React schedules it), a store change's after a microtask.
 */
import type { EventEmitter } from 'node:events';
import { waitUntil } from './wait-until.js';

/** What ink-testing-library's `render` gives that a wait reads. */
export interface RenderedApp {
  lastFrame(): string | undefined;
  stdin: EventEmitter;
}

/** Resolves once `condition` holds (checked every few ms); the error shows the last frame. */
export function until(app: RenderedApp, what: string, condition: () => boolean): Promise<void> {
  return waitUntil(what, condition, { pollMs: 5, describe: () => `Last frame:\n${app.lastFrame()}` });
}

/** Resolves once the frame includes `text`. */
export function shows(app: RenderedApp, text: string): Promise<void> {
  return until(app, JSON.stringify(text), () => (app.lastFrame() ?? '').includes(text));
}

/** Resolves once Ink reads the app's keys (an input hook has subscribed to stdin). */
export function readingKeys(app: RenderedApp): Promise<void> {
  return until(app, 'Ink to read keys', () => app.stdin.listenerCount('readable') > 0);
}
