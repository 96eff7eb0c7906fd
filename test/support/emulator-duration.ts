/**
 * Ollama's `api.Duration` as its JSON decoder reads `keep_alive`: a number of seconds, or a Go
 * duration string ("5m", "1h30m", "-1s"); anything negative means forever. Other JSON types are
 * refused with Go's wording (the handler answers 400 with it).
 */

/** Milliseconds; Infinity = forever. */
export type KeepAliveResult = { ok: true; ms: number } | { ok: false; error: string };

/** Ollama's default keep_alive when a request sets none. */
export const DEFAULT_KEEP_ALIVE_MS = 5 * 60 * 1000;

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Decodes `keep_alive` as Go would; `undefined` and `null` (an absent *Duration) give the default. */
export function decodeKeepAlive(value: unknown): KeepAliveResult {
  if (value === undefined || value === null) return { ok: true, ms: DEFAULT_KEEP_ALIVE_MS };
  if (typeof value === 'number') return { ok: true, ms: value < 0 ? Infinity : Math.trunc(value * 1000) };
  if (typeof value === 'string') {
    const ms = parseGoDuration(value);
    if (ms === undefined) return { ok: false, error: goDurationError(value) };
    return { ok: true, ms: ms < 0 ? Infinity : ms };
  }
  return { ok: false, error: `Unsupported type: '${goTypeName(value)}'` };
}

/** Go's `time.ParseDuration`: "0", or signed sequences of decimal numbers with units. */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0' || text === '+0' || text === '-0') return 0;
  const match = /^([-+]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.exec(text);
  if (!match) return undefined;
  let total = 0;
  for (const part of match[2].matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(part[1]) * UNIT_MS[part[2]];
  }
  return match[1] === '-' ? -total : total;
}

/** time.ParseDuration's messages: a number without a unit, or anything else. */
function goDurationError(text: string): string {
  const quoted = JSON.stringify(text);
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)
    ? `time: missing unit in duration ${quoted}`
    : `time: invalid duration ${quoted}`;
}

/** What Go's reflect.TypeOf prints for a value decoded into `any`. */
function goTypeName(value: unknown): string {
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}
