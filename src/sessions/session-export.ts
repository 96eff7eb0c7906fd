import { describeSummaryCut } from '../compaction/report.js';
import type { CompactionRecord } from '../conversation/compaction-record.js';
import {
  BOOKKEEPING_SETTINGS,
  entryProblem,
  headerProblem,
  type SessionEntry,
  type SessionHeader,
} from './session-format.js';
import { replaySession } from './session-replay.js';

/** What `/save x.json` writes and `/load` reads: the session's header and every entry, as stored. */
export interface SessionExport {
  format: 'ochat-session';
  header: SessionHeader;
  entries: SessionEntry[];
}

/** The JSON export of a session (pretty-printed: it is meant to be read and shared). */
export function exportJson(header: SessionHeader, entries: readonly SessionEntry[]): string {
  const data: SessionExport = { format: 'ochat-session', header, entries: [...entries] };
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** A file `/load` cannot import, with the reason. */
export class SessionImportError extends Error {
  override readonly name = 'SessionImportError';
}

/** Parses and checks a JSON export; throws a {@link SessionImportError} naming the first problem. */
export function parseJsonExport(text: string): SessionExport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SessionImportError(`not JSON (${(error as Error).message})`);
  }
  const data = value as Partial<SessionExport> | null;
  if (!data || typeof data !== 'object' || data.format !== 'ochat-session')
    throw new SessionImportError('not an ochat session export (no "format": "ochat-session")');
  const problem = headerProblem(data.header);
  if (problem) throw new SessionImportError(problem);
  if (!Array.isArray(data.entries)) throw new SessionImportError('it has no "entries" list');
  data.entries.forEach((entry, i) => {
    const entryIssue = entryProblem(entry);
    if (entryIssue) throw new SessionImportError(`entry ${i + 1}: ${entryIssue}`);
  });
  return data as SessionExport;
}

function fence(text: string): string {
  // A fence longer than any backtick run inside keeps the content verbatim.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/** The session as Markdown: the whole transcript, replaced replies and compactions marked. */
export function exportMarkdown(header: SessionHeader, entries: readonly SessionEntry[]): string {
  const { settings, replaced } = replaySession(header, entries);
  const out: string[] = [`# ${settings.name ?? `ochat session ${header.id}`}`, ''];
  out.push(`- id: ${header.id}`, `- created: ${header.created}`, `- directory: ${header.cwd}`);
  if (settings.model) out.push(`- model: ${settings.model}`);
  out.push('');
  if (header.system) out.push('## System', '', header.system, '');
  for (const entry of entries) {
    switch (entry.type) {
      case 'message': {
        const m = entry.message;
        const marks = [m.interrupted ? 'interrupted' : '', replaced.has(m.id) ? 'replaced' : '']
          .filter(Boolean)
          .join(', ');
        const title =
          m.role === 'tool' ? `Tool: ${m.tool_name ?? 'unknown'}` : m.role[0].toUpperCase() + m.role.slice(1);
        out.push(`## ${title}${marks ? ` (${marks})` : ''}`, '');
        if (m.tool_summary) out.push(`_${m.tool_summary}_`, '');
        if (m.role === 'tool') {
          const f = fence(m.content);
          out.push(f, m.content, f, '');
        } else if (m.content) out.push(m.content, '');
        for (const call of m.tool_calls ?? [])
          out.push(`- tool call: \`${call.function.name}\` ${JSON.stringify(call.function.arguments)}`, '');
        break;
      }
      case 'compaction':
        out.push(
          `> **Compaction** (${entry.record.at}, ${entry.record.model}): messages before #${entry.record.upto + 1} summarized, ${entry.record.tokensBefore} → ${entry.record.tokensAfter} tokens.`,
          '>',
          ...entry.record.narrative.split('\n').map((l) => `> ${l}`),
          ...entry.record.toolEntries.map((l) => `> - ${l}`),
          ...cutLines(entry.record),
          '',
        );
        break;
      case 'compaction-failed':
        out.push(
          entry.cancelled
            ? `> **Compaction cancelled** (${entry.at}): nothing was changed.`
            : `> **Compaction failed** (${entry.at}): ${entry.reason}`,
          '',
        );
        break;
      case 'uncompact':
        out.push(`> **Uncompacted** (${entry.at}): the previous view was restored.`, '');
        break;
      case 'setting':
        if (BOOKKEEPING_SETTINGS.has(entry.key)) break;
        out.push(`> Setting \`${entry.key}\` = ${JSON.stringify(entry.value)} (${entry.at})`, '');
        break;
      case 'replaced':
        break;
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** What a compaction cut from its summary, quoted under it ([] when nothing was cut). */
function cutLines(record: CompactionRecord): string[] {
  if (!record.cut) return [];
  const said = describeSummaryCut({ cutTokens: record.cut.tokens, endsLost: record.cut.endsLost ?? 0 });
  return ['>', `> _Summary cut: ${said}._`, ...(record.cut.text ? [`> Cut: ${record.cut.text}`] : [])];
}
