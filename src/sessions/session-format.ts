import type { CompactionRecord } from '../conversation/compaction-record.js';
import type { Message } from '../conversation/message.js';

/** The session file format this ochat writes; a file with a higher version is opened read-only. */
export const SESSION_FORMAT_VERSION = 1;

/** The server a session talked to: its protocol, its name (`vLLM`, `Ollama`) and its URL. */
export interface SessionServer {
  api: 'ollama' | 'openai';
  name: string;
  url: string;
}

/** The first line of a session file: who, where and with what it started. */
export interface SessionHeader {
  type: 'session';
  version: number;
  id: string;
  /** ISO time the session was created. */
  created: string;
  /** Working directory it was started in (`--resume` without an id picks this directory's newest). */
  cwd: string;
  /** Written since OpenAI-compatible servers came; absent in older files (Ollama). */
  server?: SessionServer;
  model?: string;
  system?: string;
  options: Record<string, unknown>;
}

/**
 * A setting that changes what the next request sends (or the session's name). `tools`: which
 * tools are on (`/tools on|off`), as `{name: enabled}`. `meter`: the context meter's state (the
 * server's last counts, the calibrated chars per token and whether its template renders the tool
 * definitions), so a resumed session decides on
 * compaction exactly as the original would, `tool_recency` the tools it used and found (so it sends
 * the same definitions), as does `auto_compaction_paused` (automatic compaction
 * waits for a successful one after it failed). `tool_started`: a tool call was approved and began
 * to run (`{message, call}`: the assistant message's id, the call's index in it), so a resume
 * after a kill says its outcome is unknown rather than that it was not run. `shortened`: the tool
 * outputs requests sent shortened to fit (`{messageId: headChars}`), sent so again after a resume. These were added
 * without a format change: a reader that does not know a key skips it.
 */
export type SettingKey =
  | 'model'
  | 'num_ctx'
  | 'system'
  | 'options'
  | 'think'
  | 'keep_alive'
  | 'name'
  | 'tools'
  | 'meter'
  | 'tool_recency'
  | 'auto_compaction_paused'
  | 'tool_started'
  | 'pins'
  | 'shortened';

/**
 * Settings kept for an exact resume, not for a reader (`/history`, `/save`): the meter's state and
 * which tools were used and found (`tool_recency`: what stays resident when definitions are deferred),
 * the call that began to run (`tool_started`).
 */
export const BOOKKEEPING_SETTINGS: ReadonlySet<SettingKey> = new Set([
  'meter',
  'tool_recency',
  'tool_started',
  'shortened',
]);

/**
 * Every line after the header. Records are plain serialized objects (the compaction record may grow
 * fields: they are kept as written). Nothing is ever rewritten: later lines amend earlier ones.
 */
export type SessionEntry =
  | { type: 'message'; message: Message }
  /** A successful compaction: its record is in force from here on. */
  | { type: 'compaction'; record: CompactionRecord }
  /**
   * A compaction that changed nothing: why (`cancelled`: the user pressed Ctrl+C), and the
   * `/compact` instructions it had, so `/history` can show every attempt.
   */
  | {
      type: 'compaction-failed';
      at: string;
      model?: string;
      trigger: string;
      reason: string;
      cancelled?: true;
      focus?: string;
    }
  /** `/uncompact`: the record in force before the latest one is in force again. */
  | { type: 'uncompact'; at: string }
  /** `/retry`: the assistant replies of message `id`'s turn from `id` on were replaced by a new reply. */
  | { type: 'replaced'; at: string; ids: number[] }
  | { type: 'setting'; at: string; key: SettingKey; value: unknown };

/** One parsed line: the header or an entry. */
export type SessionLine = SessionHeader | SessionEntry;

const ENTRY_TYPES = new Set([
  'message',
  'compaction',
  'compaction-failed',
  'uncompact',
  'replaced',
  'setting',
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why `value` is not a session header, or undefined when it is one. */
export function headerProblem(value: unknown): string | undefined {
  if (!isObject(value) || value.type !== 'session') return 'the first line is not a session header';
  if (typeof value.version !== 'number' || !Number.isInteger(value.version))
    return 'the header has no format version';
  if (typeof value.id !== 'string' || !value.id) return 'the header has no id';
  if (typeof value.created !== 'string') return 'the header has no creation time';
  if (typeof value.cwd !== 'string') return 'the header has no working directory';
  if (!isObject(value.options)) return 'the header has no options';
  return undefined;
}

function messageProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'a message line has no message';
  if (typeof value.id !== 'number' || typeof value.turn !== 'number') return 'a message has no id or turn';
  if (!['system', 'user', 'assistant', 'tool'].includes(value.role as string))
    return 'a message has no valid role';
  if (typeof value.content !== 'string') return 'a message has no content';
  return undefined;
}

function recordProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'a compaction line has no record';
  if (
    typeof value.upto !== 'number' ||
    typeof value.narrative !== 'string' ||
    !Array.isArray(value.toolEntries)
  )
    return 'a compaction record lacks upto, narrative or tool entries';
  return undefined;
}

/** Why `value` is not a valid entry of this format, or undefined when it is one. */
export function entryProblem(value: unknown): string | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return 'not a session entry';
  if (!ENTRY_TYPES.has(value.type)) return `unknown entry type "${value.type}"`;
  switch (value.type) {
    case 'message':
      return messageProblem(value.message);
    case 'compaction':
      return recordProblem(value.record);
    case 'replaced':
      return Array.isArray(value.ids) && value.ids.every((id) => typeof id === 'number')
        ? undefined
        : 'a replaced line has no message ids';
    case 'setting':
      return typeof value.key === 'string' ? undefined : 'a setting line has no key';
    default:
      return undefined;
  }
}
