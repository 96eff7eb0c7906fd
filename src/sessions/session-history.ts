import { attachmentChip } from '../attachments/attachment-chip.js';
import { shownMessage } from '../attachments/shown-message.js';
import { describeSummaryCut } from '../compaction/report.js';
import type { Message } from '../conversation/message.js';
import { formatWhen } from '../text/format-when.js';
import { BOOKKEEPING_SETTINGS, type SessionEntry, type SessionHeader } from './session-format.js';
import { replaySession } from './session-replay.js';

/** A message's text on one line; attached files as their chips, not their content. */
function historyText(message: Message): string {
  const { text, attachments } = shownMessage(message);
  return [oneLine(text), ...attachments.map(attachmentChip)].join(' ');
}

/**
 * A setting's value in words: the tool list as `on: a, b; off: c`, options as `name=value`, a
 * plain value as it is (not its JSON).
 */
function describeSetting(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  const entries = Object.entries(value);
  if (entries.length === 0) return 'nothing';
  if (entries.every(([, v]) => typeof v === 'boolean')) {
    const named = (state: boolean) => entries.filter(([, v]) => v === state).map(([k]) => k);
    const on = named(true);
    const off = named(false);
    return [on.length ? `on: ${on.join(', ')}` : '', off.length ? `off: ${off.join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
  }
  return entries.map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ');
}

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The whole history of a session as `/history` shows it: every message (those the summary in
 * force stands for marked `summarized`, replaced and interrupted replies marked), every
 * compaction attempt (success, failure or cancelled, with its `/compact` instructions), every
 * `/uncompact`, in the order they happened: a compaction run before a message was sent above it.
 */
export function formatHistory(
  header: SessionHeader,
  entries: readonly SessionEntry[],
  now: Date = new Date(),
): string {
  // One way to say when, as /summary and /sessions say it ("just now", "today at 14:02").
  const when = (at: string) => formatWhen(at, now);
  const { records, replaced, settings } = replaySession(header, entries);
  const summarizedBelow = records.at(-1)?.upto ?? 0;
  const lines = [
    `Session ${settings.name ? `"${settings.name}" ` : ''}${header.id} · started ${when(header.created)} in ${header.cwd}`,
  ];
  let index = 0;
  /**
   * Where the newest user message's line is while no other message followed it: a compaction
   * then was the one its sending ran first, and its marker goes above it.
   */
  let sentAfter: number | undefined;
  const marker = (line: string) => {
    if (sentAfter === undefined) lines.push(line);
    else lines.splice(sentAfter++, 0, line);
  };
  const focus = (text: string | undefined) =>
    text ? `, /compact ${JSON.stringify(oneLine(text, 120))}` : '';
  for (const entry of entries) {
    switch (entry.type) {
      case 'message': {
        const m = entry.message;
        const marks = [
          index < summarizedBelow ? 'summarized' : '',
          replaced.has(m.id) ? 'replaced' : '',
          m.interrupted ? 'interrupted' : '',
        ].filter(Boolean);
        const who = m.role === 'tool' ? `tool ${m.tool_name ?? ''}`.trim() : m.role;
        const calls = m.tool_calls?.length
          ? `(tool calls: ${m.tool_calls.map((c) => c.function.name).join(', ')})`
          : '';
        const text = m.role === 'tool' && m.tool_summary ? m.tool_summary : historyText(m);
        const said = [text, calls].filter(Boolean).join(' ');
        sentAfter = m.role === 'user' ? lines.length : undefined;
        lines.push(`[${index + 1}]${marks.length ? ` (${marks.join(', ')})` : ''} ${who}: ${said}`);
        index++;
        break;
      }
      case 'compaction': {
        const r = entry.record;
        const cut = r.cut
          ? describeSummaryCut({ cutTokens: r.cut.tokens, endsLost: r.cut.endsLost ?? 0 })
          : '';
        marker(
          `── compacted ${when(r.at)} by ${r.model}${focus(r.focus)}: messages 1–${r.upto} summarized, ${r.tokensBefore} → ${r.tokensAfter} tokens${cut ? `; summary cut: ${cut}` : ''}`,
        );
        break;
      }
      case 'compaction-failed':
        marker(
          entry.cancelled
            ? `── compaction cancelled ${when(entry.at)} (${entry.trigger}${focus(entry.focus)}): nothing was changed`
            : `── compaction failed ${when(entry.at)} (${entry.trigger}${focus(entry.focus)}): ${entry.reason}`,
        );
        break;
      case 'uncompact':
        lines.push(`── uncompacted ${when(entry.at)}: the previous view is back in force`);
        break;
      case 'setting':
        if (entry.key === 'auto_compaction_paused')
          lines.push(`── automatic compaction ${entry.value ? 'paused' : 'on again'}`);
        else if (entry.key !== 'num_ctx' && !BOOKKEEPING_SETTINGS.has(entry.key))
          lines.push(`── ${entry.key} set to ${oneLine(describeSetting(entry.value), 120)}`);
        break;
      case 'replaced':
        lines.push(
          `── /retry ${when(entry.at)}: ${entry.ids.length === 1 ? 'the reply above was' : `${entry.ids.length} messages above were`} replaced by a new reply`,
        );
        break;
    }
  }
  if (index === 0) lines.push('(no messages yet)');
  return lines.join('\n');
}
