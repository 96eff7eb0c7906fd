/**
 * `keep_alive` as Ollama reads it (a Go `time.Duration` or a number): how long the server keeps a
 * model loaded after a request. Checked here, so a value Ollama would refuse with HTTP 400 is an
 * error in the config file or at `/set`, not on every request.
 */

/** What is sent: a number of seconds (negative = forever, 0 = unload after the reply) or a duration. */
export type KeepAlive = number | string;

/** Go's `time.ParseDuration` syntax: "0", or numbers with units, e.g. "30m", "1h30m", "-1s". */
// µs and μs (micro sign, Greek mu) escaped: the bundles stay ASCII (scripts/build.mjs).
const GO_DURATION = /^[-+]?(0|((\d+\.?\d*|\.\d+)(ns|us|\xB5s|\u03BCs|ms|s|m|h))+)$/;

/** What a valid value looks like, for error messages. */
export const KEEP_ALIVE_FORMS = 'a duration such as 30m or 2h, a number of seconds, or -1 (forever)';

/** The value as sent to Ollama, or undefined when Ollama would refuse it. */
export function toKeepAlive(value: unknown): KeepAlive | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  // A bare number typed at /set is seconds; Ollama refuses it as a string ("missing unit").
  if (/^[-+]?\d+(\.\d+)?$/.test(text)) return Number(text);
  return GO_DURATION.test(text) ? text : undefined;
}

/** The value in words: "forever", "unload after each reply", or the value itself ("30m", "300 s"). */
export function describeKeepAlive(value: KeepAlive): string {
  if (typeof value === 'number') {
    if (value < 0) return 'forever';
    if (value === 0) return 'unload after each reply';
    return `${value} s`;
  }
  if (value.startsWith('-')) return 'forever';
  return /^[+]?0+$/.test(value) ? 'unload after each reply' : value;
}
