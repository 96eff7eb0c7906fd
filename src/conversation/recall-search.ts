import type { Message } from './message.js';

/** The tool's name, the model's way to this search. */
export const RECALL_TOOL_NAME = 'recall';

/** Most characters of passages one search returns: a few thousand, so a recall never floods the window. */
export const RECALL_MAX_CHARS = 3000;

/** Lines of context a passage gives on each side of the line that matched. */
const CONTEXT_LINES = 1;

/** A passage of the history, verbatim, and where it is. */
export interface RecallPassage {
  /** The message's number in the transcript, from 1. */
  number: number;
  role: Message['role'];
  at: string;
  /** The matching line with a line of context each side, exactly as written. */
  text: string;
}

/** The best passages for a query, and how many more matched than are shown. */
export interface RecallResult {
  passages: RecallPassage[];
  more: number;
}

/** The words a query searches for: lowercase, two characters or more, each once. */
function terms(query: string): string[] {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}_./:@=$-]+/u)
        .filter((t) => t.length >= 2),
    ),
  ];
}

/**
 * Searches every message (compacted or not, tool outputs and pastes whole, thinking left out, and
 * earlier `recall` results too: copies, which would crowd out the lines they copied) for
 * the query: each line scores the distinct query words it holds, the whole query as written
 * counting most; the best lines come back as passages, verbatim, best first, ties oldest first,
 * within `maxChars`, with how many more matched. Deterministic; reads nothing but the messages.
 */
export function searchHistory(
  transcript: readonly Message[],
  query: string,
  maxChars = RECALL_MAX_CHARS,
): RecallResult {
  const words = terms(query);
  const phrase = query.trim().toLowerCase();
  if (!words.length) return { passages: [], more: 0 };
  const hits: { score: number; index: number; line: number; lines: string[] }[] = [];
  transcript.forEach((message, index) => {
    if (!message.content || message.tool_name === RECALL_TOOL_NAME) return;
    const lines = message.content.split('\n');
    lines.forEach((line, at) => {
      const lower = line.toLowerCase();
      const found = words.filter((w) => lower.includes(w)).length;
      if (!found) return;
      const score = found / words.length + (phrase.length > 2 && lower.includes(phrase) ? 1 : 0);
      hits.push({ score, index, line: at, lines });
    });
  });
  hits.sort((a, b) => b.score - a.score || a.index - b.index || a.line - b.line);
  const passages: RecallPassage[] = [];
  let used = 0;
  let shown = 0;
  for (const hit of hits) {
    const from = Math.max(0, hit.line - CONTEXT_LINES);
    const text = hit.lines.slice(from, hit.line + CONTEXT_LINES + 1).join('\n');
    const piece = text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
    if (used + piece.length > maxChars) break;
    const message = transcript[hit.index];
    passages.push({ number: hit.index + 1, role: message.role, at: message.at, text: piece });
    used += piece.length;
    shown += 1;
  }
  return { passages, more: hits.length - shown };
}

/** The result as the model and the user read it: each passage under where it is, and a note when more matched. */
export function formatRecall(query: string, result: RecallResult): string {
  if (!result.passages.length) return `Nothing in this conversation matches "${query}".`;
  const parts = result.passages.map((p) => `[message ${p.number}, ${p.role}, ${p.at}]\n${p.text}`);
  if (result.more > 0)
    parts.push(
      `(${result.more} more matching line${result.more === 1 ? '' : 's'} not shown: a more precise query narrows them)`,
    );
  return parts.join('\n\n');
}
