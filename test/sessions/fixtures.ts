import type { CompactionRecord } from '../../src/conversation/compaction-record.js';
import type { Message } from '../../src/conversation/message.js';
import type { SessionEntry, SessionHeader } from '../../src/sessions/session-format.js';

export const HEADER: SessionHeader = {
  type: 'session',
  version: 1,
  id: '20261203-060000-abcd',
  created: '2026-12-03T06:00:00.000Z',
  cwd: '/home/u/project',
  model: 'llama3.2',
  system: 'Be brief.',
  options: { temperature: 0.2 },
};

export function message(
  id: number,
  role: Message['role'],
  content: string,
  extra: Partial<Message> = {},
): SessionEntry {
  return {
    type: 'message',
    message: { id, turn: Math.ceil(id / 2), role, content, at: '2026-12-03T06:00:01.000Z', ...extra },
  };
}

export function record(upto: number, narrative = `summary up to ${upto}`): CompactionRecord {
  return {
    upto,
    narrative,
    toolEntries: ['read_file a.txt: 3 lines.'],
    model: 'llama3.2',
    at: '2026-12-03T06:01:00.000Z',
    tokensBefore: 1000,
    tokensAfter: 200,
  };
}

/** A session file's text: the header and entries as lines. */
export function sessionText(header: SessionHeader, entries: SessionEntry[]): string {
  return [header, ...entries].map((line) => `${JSON.stringify(line)}\n`).join('');
}
