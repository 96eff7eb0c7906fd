import type { ReceivedToolCall } from '../conversation/message.js';

/**
 * Reads the `tool_calls` of a streamed chunk. Ollama's own calls are `{id, function: {index, name,
 * arguments: {…}}}`, but a proxy, a broken chat template or an OpenAI-style server may send
 * anything: every entry becomes a call that is safe to store and to send back (a string name, an
 * object of arguments), and one that was not readable says why in `malformed`.
 */
export function readToolCalls(raw: unknown): ReceivedToolCall[] {
  if (raw === undefined || raw === null) return [];
  return (Array.isArray(raw) ? raw : [raw]).map(readToolCall);
}

function readToolCall(entry: unknown): ReceivedToolCall {
  if (!isRecord(entry)) return malformed('', `the call is ${describe(entry)}, not an object`);
  const fn = entry.function;
  if (!isRecord(fn)) return malformed('', 'the call has no "function" object', entry.id);
  const { name } = fn;
  const shownName = typeof name === 'string' || typeof name === 'number' ? String(name) : '';
  if (typeof name !== 'string' || name.trim() === '') {
    const problem =
      name === undefined || name === '' ? 'the tool name is missing' : `the tool name is ${describe(name)}`;
    return malformed(shownName, problem, entry.id);
  }
  const args = readArguments(fn.arguments);
  const call: ReceivedToolCall = { function: { name, arguments: args ?? {} } };
  if (typeof entry.id === 'string') call.id = entry.id;
  if (typeof fn.index === 'number') call.function.index = fn.index;
  if (args === undefined) call.malformed = `the arguments are ${describe(fn.arguments)}, not a JSON object`;
  return call;
}

/** The arguments as an object; some models send them as a JSON string. Undefined when unreadable. */
function readArguments(raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null || raw === '') return {};
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function malformed(name: string, problem: string, id?: unknown): ReceivedToolCall {
  const call: ReceivedToolCall = { function: { name, arguments: {} }, malformed: problem };
  if (typeof id === 'string') call.id = id;
  return call;
}

/** A short description of a JSON value for an error: `null`, `a number (42)`, `a list`. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return value === '' ? 'empty' : 'a string';
  if (typeof value === 'number' || typeof value === 'boolean') return `a ${typeof value} (${value})`;
  return typeof value === 'object' ? 'an object' : String(typeof value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
