import type { CompactionRecord } from '../conversation/compaction-record.js';
import type { MeterState } from '../conversation/context-meter.js';
import type { Message } from '../conversation/message.js';
import type { ToolRecencyState } from '../conversation/tool-recency.js';
import type { StartedToolCall } from '../conversation/turns.js';
import type { SessionEntry, SessionHeader, SettingKey } from './session-format.js';

/** One compaction attempt, successful or not, in the order they happened (for `/history`). */
export type CompactionAttempt =
  | { ok: true; record: CompactionRecord }
  | { ok: false; at: string; model?: string; trigger: string; reason: string };

/** What replaying a session's entries gives back: the state the chat had when the file ended. */
export interface ReplayedSession {
  messages: Message[];
  /** The compaction records in force, oldest first (`/uncompact` removes the latest). */
  records: CompactionRecord[];
  /** Every compaction attempt, successes and failures. */
  attempts: CompactionAttempt[];
  /** Ids of assistant and tool messages replaced by `/retry`. */
  replaced: Set<number>;
  /** The settings in force at the end: the header's, amended by every setting line. */
  settings: SessionSettings;
  /** `/uncompact` events (times), for `/history`. */
  uncompacted: string[];
}

/** The settings a session carries: what the next request sends, and its name. */
export interface SessionSettings {
  model?: string;
  numCtx?: number;
  system?: string;
  options: Record<string, unknown>;
  think?: boolean | 'low' | 'medium' | 'high';
  /** `/set keep_alive` as written (null: back to the server's default); undefined: never set in the session. */
  keepAlive?: number | string | null;
  name?: string;
  /** Which tools `/tools on|off` left on or off, by name (tools not named keep their default). */
  tools?: Record<string, boolean>;
  /** The context meter's last state (undefined in sessions saved before it was recorded). */
  meter?: MeterState;
  /** The tools used and found, the most recent first (undefined in sessions saved before it was recorded). */
  toolRecency?: ToolRecencyState;
  /** Automatic compaction was paused by a failure, until one succeeds. */
  autoCompactionPaused?: boolean;
  /** The notes `/pin` kept, in order (the last `pins` line wins). */
  pins?: string[];
  /** Tool outputs the requests sent shortened to fit: message id → chars of head kept. */
  shortened?: Record<number, number>;
  /** The last tool call that began to run (it may have no result: the session was killed while it ran). */
  toolStarted?: StartedToolCall;
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** A saved meter state, or undefined when the value is not one (then the meter estimates afresh). */
function meterState(value: unknown): MeterState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { charsPerToken, anchor, rendersTools } = value as Record<string, unknown>;
  if (!isCount(charsPerToken) || charsPerToken === 0) return undefined;
  const learnt = typeof rendersTools === 'boolean' ? { rendersTools } : {};
  if (anchor === undefined) return { charsPerToken, ...learnt };
  const a = anchor as Record<string, unknown> | null;
  if (!a || !isCount(a.tokens) || !isCount(a.transcriptLength) || !isCount(a.recordCount))
    return { charsPerToken, ...learnt };
  const { tokens, transcriptLength, recordCount } = a;
  return {
    charsPerToken,
    anchor: isCount(a.estimated)
      ? { tokens, transcriptLength, recordCount, estimated: a.estimated }
      : { tokens, transcriptLength, recordCount },
    ...learnt,
  };
}

/** A saved started call, or undefined when the value is not one. */
function startedToolCall(value: unknown): StartedToolCall | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { message, call } = value as Record<string, unknown>;
  return isCount(message) && isCount(call) ? { message, call } : undefined;
}

/** A saved tools state: the boolean entries of an object. */
function toolsState(value: unknown): Record<string, boolean> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.fromEntries(Object.entries(value).filter(([, on]) => typeof on === 'boolean'));
}

/** A saved map of shortened outputs (message id → chars of head), or undefined. */
function shortenedState(value: unknown): Record<number, number> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value).filter(([id, head]) => /^\d+$/.test(id) && isCount(head));
  return Object.fromEntries(entries.map(([id, head]) => [Number(id), head as number]));
}

/** A saved tool recency: two lists of names, or undefined. */
function toolRecencyState(value: unknown): ToolRecencyState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { used, found } = value as Record<string, unknown>;
  const names = (list: unknown) =>
    Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [];
  return { used: names(used), found: names(found) };
}

/** Applies one setting line (unknown keys from a newer ochat are ignored). */
function applySetting(settings: SessionSettings, key: SettingKey, value: unknown): void {
  switch (key) {
    case 'model':
      settings.model = typeof value === 'string' ? value : undefined;
      break;
    case 'num_ctx':
      settings.numCtx = typeof value === 'number' ? value : undefined;
      break;
    case 'system':
      settings.system = typeof value === 'string' ? value : undefined;
      break;
    case 'options':
      if (typeof value === 'object' && value !== null)
        settings.options = { ...(value as Record<string, unknown>) };
      break;
    case 'think':
      settings.think =
        typeof value === 'boolean' || value === 'low' || value === 'medium' || value === 'high'
          ? value
          : undefined;
      break;
    case 'keep_alive':
      settings.keepAlive =
        typeof value === 'number' || typeof value === 'string' || value === null ? value : undefined;
      break;
    case 'name':
      settings.name = typeof value === 'string' && value ? value : undefined;
      break;
    case 'tools':
      settings.tools = toolsState(value);
      break;
    case 'meter':
      settings.meter = meterState(value);
      break;
    case 'tool_recency':
      settings.toolRecency = toolRecencyState(value);
      break;
    case 'auto_compaction_paused':
      settings.autoCompactionPaused = value === true;
      break;
    case 'tool_started':
      settings.toolStarted = startedToolCall(value);
      break;
    case 'shortened':
      settings.shortened = shortenedState(value);
      break;
    case 'pins':
      settings.pins = Array.isArray(value)
        ? value.filter((pin): pin is string => typeof pin === 'string')
        : undefined;
      break;
  }
}

/** Replays a session's entries, in order, into the chat state they describe. */
export function replaySession(header: SessionHeader, entries: readonly SessionEntry[]): ReplayedSession {
  const messages: Message[] = [];
  const records: CompactionRecord[] = [];
  const attempts: CompactionAttempt[] = [];
  const replaced = new Set<number>();
  const uncompacted: string[] = [];
  const settings: SessionSettings = {
    model: header.model,
    system: header.system,
    options: { ...header.options },
  };
  for (const entry of entries) {
    switch (entry.type) {
      case 'message':
        messages.push(entry.message);
        break;
      case 'compaction':
        records.push(entry.record);
        attempts.push({ ok: true, record: entry.record });
        break;
      case 'compaction-failed':
        attempts.push({
          ok: false,
          at: entry.at,
          model: entry.model,
          trigger: entry.trigger,
          reason: entry.reason,
        });
        break;
      case 'uncompact':
        records.pop();
        uncompacted.push(entry.at);
        break;
      case 'replaced':
        for (const id of entry.ids) replaced.add(id);
        break;
      case 'setting':
        applySetting(settings, entry.key, entry.value);
        break;
    }
  }
  // Replaced replies stay in the transcript, marked, so the model view leaves them out.
  const marked = replaced.size
    ? messages.map((m) => (replaced.has(m.id) ? { ...m, replaced: true } : m))
    : messages;
  return { messages: marked, records, attempts, replaced, settings, uncompacted };
}
