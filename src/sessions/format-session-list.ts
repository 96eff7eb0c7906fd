import type { SessionSummary } from './session-store.js';

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `2026-12-03 06:14` in local time: sortable and short. */
function shortTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * Sessions as a table, newest first: id, name, model, messages, last activity, first user line.
 * Names and first lines are the user's and the model's text: the caller sanitizes for the terminal.
 */
export function formatSessionList(sessions: readonly SessionSummary[], currentId?: string): string {
  if (sessions.length === 0) return 'No saved sessions yet.';
  const rows = sessions.map((s) => [
    `${s.id === currentId ? '*' : ' '} ${s.id}`,
    clip(s.name ?? '', 20),
    s.model ?? '?',
    String(s.messages),
    shortTime(s.lastActivity),
    clip(s.firstUserLine ?? '', 50),
  ]);
  const head = ['  id', 'name', 'model', 'msgs', 'last activity', 'first message'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 3 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}
