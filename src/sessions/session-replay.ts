import type { CompactionRecord } from '../conversation/compaction-record.js';
import type { Message } from '../conversation/message.js';
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
  name?: string;
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
    case 'name':
      settings.name = typeof value === 'string' && value ? value : undefined;
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
  return { messages, records, attempts, replaced, settings, uncompacted };
}
