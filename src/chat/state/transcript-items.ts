import { shownMessage } from '../../attachments/shown-message.js';
import { formatTokensChange } from '../../conversation/format-tokens.js';
import type { Message } from '../../conversation/message.js';
import type { SessionEntry } from '../../sessions/session-format.js';
import { FAILURE_MARK } from '../../tools/failure-line.js';
import type { DisplayItem, UserItem } from './display-items.js';

/** Messages shown on screen after a resume; `/history` shows all of them. */
export const RESUME_SHOWN_MESSAGES = 40;

/** What the screen needs to show a resumed session's newest part. */
export interface TranscriptItemsInput {
  entries: readonly SessionEntry[];
  itemId: () => string;
  /** The argument that identifies a tool call, as the tool names it (e.g. the path). */
  keyArgument: (tool: string, args: Record<string, unknown>) => string;
  shown?: number;
}

/**
 * The display items of a resumed session: its newest messages and the compaction reports among
 * them, as the chat showed them, after one line saying how much more `/history` holds.
 */
export function transcriptItems(input: TranscriptItemsInput): DisplayItem[] {
  const { entries, itemId } = input;
  const shown = input.shown ?? RESUME_SHOWN_MESSAGES;
  // Replies `/retry` replaced are not shown again (as the chat showed the new one): /history has them.
  const replaced = new Set(entries.flatMap((e) => (e.type === 'replaced' ? e.ids : [])));
  const messageCount = entries.filter((e) => e.type === 'message' && !replaced.has(e.message.id)).length;
  const hidden = Math.max(0, messageCount - shown);
  const items: DisplayItem[] = [];
  if (hidden > 0)
    items.push({
      kind: 'notice',
      id: itemId(),
      level: 'info',
      text: `${hidden} earlier message${hidden === 1 ? '' : 's'} not shown; /history shows the whole session.`,
    });
  let seen = 0;
  let previousUpto = 0;
  // The model and window in force as the file goes: a compaction's percentages are of its window,
  // and a change of either is shown where it happened (it explains the figures after it).
  let model: string | undefined;
  let numCtx: number | undefined;
  for (const entry of entries) {
    if (entry.type === 'setting' && entry.key === 'model' && typeof entry.value === 'string') {
      if (model !== undefined && entry.value !== model && seen >= hidden)
        items.push({ kind: 'notice', id: itemId(), level: 'success', text: `Switched to ${entry.value}.` });
      model = entry.value;
      continue;
    }
    if (entry.type === 'setting' && entry.key === 'num_ctx' && typeof entry.value === 'number') {
      if (numCtx !== undefined && entry.value !== numCtx && seen >= hidden)
        items.push({ kind: 'notice', id: itemId(), level: 'success', text: `num_ctx = ${entry.value}` });
      numCtx = entry.value;
      continue;
    }
    if (entry.type === 'compaction') {
      const r = entry.record;
      const summarized = Math.max(0, r.upto - previousUpto);
      previousUpto = r.upto;
      if (seen >= hidden)
        items.push({
          kind: 'notice',
          id: itemId(),
          level: 'success',
          text: `Compacted ${summarized} message${summarized === 1 ? '' : 's'}: ${formatTokensChange(r.tokensBefore, r.tokensAfter, numCtx)}`,
        });
      continue;
    }
    if (entry.type === 'compaction-failed' && seen >= hidden) {
      items.push({
        kind: 'notice',
        id: itemId(),
        level: 'warning',
        text: entry.cancelled
          ? 'Compaction cancelled; nothing was changed.'
          : `Compaction failed: ${entry.reason}`,
      });
      continue;
    }
    if (entry.type === 'uncompact' && seen >= hidden) {
      items.push({
        kind: 'notice',
        id: itemId(),
        level: 'success',
        text: 'Uncompacted: the previous view is back.',
      });
      continue;
    }
    if (entry.type !== 'message' || replaced.has(entry.message.id)) continue;
    seen++;
    if (seen <= hidden) continue;
    const m = entry.message;
    if (m.role === 'user' && m.shell) {
      // The output stays in the conversation; the screen shows what ran and how it ended, as for tools.
      const { command, end, ok } = m.shell;
      items.push({ kind: 'shell', id: itemId(), command, end, ok });
    } else if (m.role === 'user') items.push(userItem(m, itemId()));
    else if (m.role === 'assistant') {
      if (m.thinking) items.push({ kind: 'thinking', id: itemId(), text: m.thinking });
      if (m.content || m.interrupted)
        items.push({ kind: 'assistant', id: itemId(), markdown: m.content, interrupted: m.interrupted });
    } else if (m.role === 'tool') {
      const name = m.tool_name ?? 'tool';
      items.push({
        kind: 'tool',
        id: itemId(),
        name,
        keyArgument: input.keyArgument(name, m.tool_args ?? {}),
        summary: m.tool_summary ?? 'was called.',
        // As live: a declined or refused call failed too (its summary says so), not only an error.
        ok: !m.content.startsWith('Error') && !m.tool_summary?.startsWith(FAILURE_MARK),
      });
    }
  }
  return items;
}

/** A user message as it was shown: typed text and attachment chips, not the files. */
function userItem(m: Message, id: string): UserItem {
  const { text, attachments } = shownMessage(m);
  return attachments.length > 0 ? { kind: 'user', id, text, attachments } : { kind: 'user', id, text };
}
