/** Longest string shown verbatim in an error before it is cut short. */
const MAX_SHOWN_CHARS = 40;

/**
 * A short, human-readable rendering of a value that failed validation, for "got …" in
 * error messages: strings quoted, collections by kind (their content would drown the message).
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    const shown = value.length > MAX_SHOWN_CHARS ? `${value.slice(0, MAX_SHOWN_CHARS)}…` : value;
    return JSON.stringify(shown);
  }
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'a mapping';
  return String(value);
}

/**
 * A zod `error` parameter that phrases every failure of a schema (wrong type, out of range, …)
 * as `must be <expectation>, got <value>`: one sentence that says both what and why.
 */
export function mustBe(expectation: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => `must be ${expectation}, got ${describeValue(issue.input)}` };
}
