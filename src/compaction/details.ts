import type { ExactDetail } from '../conversation/compaction-record.js';
import type { Message } from '../conversation/message.js';

export type { ExactDetail } from '../conversation/compaction-record.js';

/**
 * Exact details: what small summarizers drop and users need back verbatim (paths, URLs, emails,
 * backticked commands, ids with digits, dates, amounts, numbers). Found deterministically, so
 * compaction can ask for them, check them and keep the missing ones out-of-band (DESIGN §11).
 */
export type DetailKind =
  | 'url'
  | 'email'
  | 'code'
  | 'date'
  | 'amount'
  | 'path'
  | 'assignment'
  | 'identifier'
  | 'number';

/** One detail found in a text: its exact text and where it is. */
export interface FoundDetail {
  text: string;
  kind: DetailKind;
  start: number;
  end: number;
}

const MONTHS =
  'Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?';
const UNITS =
  'ms|s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|[kKMGT]i?B|bytes?|KB|%|px|rpm|req/s|qps|tokens?|GHz|MHz|kHz|Hz|cores?|users?|rows?|lines?|items?|retries|workers?|threads?|replicas|nodes?|ports?|mg|kg|g|km|m|cm|mm';

/**
 * The kinds in the order they claim text: an earlier kind's match hides every later match that
 * overlaps it (a URL's path and port are the URL's, an email's domain the email's).
 */
const PATTERNS: readonly (readonly [DetailKind, RegExp])[] = [
  ['code', /`([^`\n]{2,200})`/g],
  ['url', /\b(?:https?|ftp|wss?|postgres(?:ql)?|mysql|redis|mongodb):\/\/[^\s<>"'`]+/g],
  ['email', /\b[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g],
  [
    'date',
    new RegExp(
      `\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2})?(?:Z|[+-]\\d{2}:?\\d{2})?)?\\b|\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b|\\b(?:${MONTHS})\\.? \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?\\b|\\b\\d{1,2} (?:${MONTHS}) \\d{4}\\b`,
      'g',
    ),
  ],
  [
    'amount',
    // $ € £ ¥ (escaped: the bundles stay ASCII, scripts/build.mjs).
    /[$\u20AC\xA3\xA5]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:[kKmM]|bn|million|billion)\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|GBP|JPY|CHF|dollars|euros|pounds)\b/g,
  ],
  [
    'path',
    /(?<![\w~.])(?:~|\.{1,2})?\/[\w.@+-]+(?:\/[\w.@+-]*)*|\b[\w.-]+(?:\/[\w.@+-]+)+\.[A-Za-z0-9]{1,8}\b|\b[\w.-]+\/[\w.-]+\/[\w.@+/-]+/g,
  ],
  ['assignment', /\b[A-Za-z_][\w.]*=[^\s,;]+/g],
  ['identifier', /\b[A-Za-z0-9][\w.:#-]*[A-Za-z0-9]\b/g],
  [
    'number',
    new RegExp(
      `\\b\\d+(?:\\.\\d+)?\\s?(?:${UNITS})(?![\\w])|\\b\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?\\b|\\b\\d{3,}(?:\\.\\d+)?\\b`,
      'g',
    ),
  ],
];

/** Ordinals and plain words with a digit that are no detail worth keeping. */
const NOT_AN_IDENTIFIER = /^(?:\d+(?:st|nd|rd|th)|[A-Za-z]\d|\d[A-Za-z]|\d+[dD]|[A-Za-z]+\d?:?)$/;

/** The exact details of `text`, in order of appearance, each once (by its text). */
export function findDetails(text: string): FoundDetail[] {
  const taken: FoundDetail[] = [];
  const overlaps = (start: number, end: number) => taken.some((d) => start < d.end && end > d.start);
  for (const [kind, pattern] of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      let raw = match[0];
      // Sentence punctuation after a URL or a path is not part of it.
      if (kind === 'url' || kind === 'path' || kind === 'assignment')
        raw = raw.replace(/[.,;:!?)\]}'"]+$/, '');
      const end = start + raw.length;
      const detailText = kind === 'code' ? (match[1] ?? '').trim() : raw;
      if (!keeps(kind, detailText) || overlaps(start, end)) continue;
      taken.push({ text: detailText, kind, start, end });
    }
  }
  taken.sort((a, b) => a.start - b.start);
  const seen = new Set<string>();
  return taken.filter((d) => !seen.has(d.text) && seen.add(d.text));
}

function keeps(kind: DetailKind, text: string): boolean {
  if (text.length < 3) return false;
  if (kind === 'identifier') {
    // An identifier carries a digit, and a letter (else it is a number, judged as one).
    return /\d/.test(text) && /[A-Za-z]/.test(text) && !NOT_AN_IDENTIFIER.test(text);
  }
  if (kind === 'assignment') return /\d/.test(text) || /^[A-Z_]+=/.test(text);
  if (kind === 'code') return /\S/.test(text);
  return true;
}

/** Words of context on each side of a detail (`port 5433 (… payments host listens on port …)`). */
const CONTEXT_WORDS_BEFORE = 4;
const CONTEXT_WORDS_AFTER = 2;
const MAX_CONTEXT_CHARS = 60;

/**
 * A few words around the detail on its own line, the detail itself replaced by `…`, e.g.
 * `the payments host listens on port …`: enough for the model to know what the value is of.
 */
export function detailContext(text: string, detail: Pick<FoundDetail, 'start' | 'end'>): string {
  const lineStart = text.lastIndexOf('\n', detail.start - 1) + 1;
  const lineEnd = text.indexOf('\n', detail.end);
  const words = (from: number, to: number | undefined) =>
    text
      .slice(from, to)
      .replace(/`/g, '')
      .split(/\s+/)
      .filter((w) => /[\p{L}\p{N}]/u.test(w));
  // Both sides stop at the sentence's end.
  const before = words(lineStart, detail.start);
  const lastSentenceEnd = before.findLastIndex((w) => /[.!?]$/.test(w));
  const shownBefore = before.slice(lastSentenceEnd + 1).slice(-CONTEXT_WORDS_BEFORE);
  const after = /^[.!?]/.test(text.slice(detail.end))
    ? []
    : words(detail.end, lineEnd === -1 ? undefined : lineEnd);
  const sentenceEnd = after.findIndex((w) => /[.!?]$/.test(w));
  const shownAfter = after
    .slice(0, Math.min(CONTEXT_WORDS_AFTER, sentenceEnd === -1 ? Infinity : sentenceEnd + 1))
    .map((w, i, all) => (i === all.length - 1 ? w.replace(/[.,;:!?]+$/, '') : w));
  const joined = [...shownBefore, '…', ...shownAfter].join(' ');
  if (joined === '…') return '';
  return joined.length > MAX_CONTEXT_CHARS ? `${joined.slice(0, MAX_CONTEXT_CHARS - 1)}…` : joined;
}

/** At most this many details are taken from one message: a pasted log is not a list of facts. */
export const MAX_DETAILS_PER_MESSAGE = 24;

/** A message of more lines than this is taken for a paste (a log, a stack trace, a file). */
export const PASTE_LINES = 10;

/**
 * The exact details of a slice, oldest first, each once (a later mention replaces an earlier
 * one, its context too: the newer value is the one in force). From what the user and the
 * assistant wrote, in full; tool outputs and `!command` runs are left to the tool log and the history
 * (a file read would bury the user's facts under its numbers).
 */
export function collectDetails(slice: readonly Message[]): ExactDetail[] {
  return collectSliceDetails(slice).details;
}

/**
 * `collectDetails`, and the texts of the details past a message's cap (`MAX_DETAILS_PER_MESSAGE`:
 * the rest of a pasted log), which no list holds: compaction counts them as folded, never silently.
 */
export function collectSliceDetails(slice: readonly Message[]): {
  details: ExactDetail[];
  pastCap: string[];
} {
  const byText = new Map<string, ExactDetail>();
  const pastCap = new Set<string>();
  for (const message of slice) {
    const text = ownWords(message);
    if (text === undefined) continue;
    const pasted = isPaste(text);
    const found = findDetails(text);
    for (const detail of found.slice(MAX_DETAILS_PER_MESSAGE)) pastCap.add(detail.text);
    for (const detail of found.slice(0, MAX_DETAILS_PER_MESSAGE)) {
      byText.delete(detail.text);
      const kept: ExactDetail = { text: detail.text, context: detailContext(text, detail) };
      if (pasted) kept.pasted = true;
      byText.set(detail.text, kept);
    }
  }
  return { details: [...byText.values()], pastCap: [...pastCap].filter((text) => !byText.has(text)) };
}

/** What the user or the assistant wrote in a message, as typed; undefined for tool outputs and `!command` runs. */
function ownWords(message: Message): string | undefined {
  if (message.replaced || message.shell) return undefined;
  if (message.role !== 'user' && message.role !== 'assistant') return undefined;
  return message.typed ?? message.content;
}

function isPaste(text: string): boolean {
  return text.split('\n', PASTE_LINES + 1).length > PASTE_LINES;
}

/**
 * Whether `detail` is written in a pasted block (a log, a stack trace) of these messages: its
 * details were listed, or folded and counted (`collectSliceDetails`), and `recall` finds it.
 */
export function inPastedBlock(messages: readonly Message[], detail: string): boolean {
  return messages.some((message) => {
    const text = ownWords(message);
    return text !== undefined && isPaste(text) && holdsDetail(text, detail);
  });
}

/** Whether `narrative` keeps the detail exactly as written. */
export function keptIn(narrative: string, detail: Pick<ExactDetail, 'text'>): boolean {
  return holdsDetail(narrative, detail.text);
}

/**
 * Whether `text` holds `detail` as itself, not as a piece of a longer word (`FACT-t1` is not in
 * `FACT-t10`, port `5433` not in `54331`), where the extractor would have found it.
 */
export function holdsDetail(text: string, detail: string): boolean {
  if (!detail) return false;
  const wordAt = (at: number) => /\w/.test(text[at] ?? '');
  const startsWord = /^\w/.test(detail);
  const endsWord = /\w$/.test(detail);
  for (let at = text.indexOf(detail); at >= 0; at = text.indexOf(detail, at + 1)) {
    if (!(startsWord && wordAt(at - 1)) && !(endsWord && wordAt(at + detail.length))) return true;
  }
  return false;
}

/**
 * Details in order, each once by text, the later of two taking the place (and context) of the
 * earlier: previous first, then added.
 */
export function joinDetails(...lists: readonly (readonly ExactDetail[])[]): ExactDetail[] {
  const byText = new Map<string, ExactDetail>();
  for (const list of lists) {
    for (const detail of list) {
      byText.delete(detail.text);
      byText.set(detail.text, detail);
    }
  }
  return [...byText.values()];
}

/** How one detail is listed in the summary section: `- 5433 (payments host listens on port …)`. */
export function detailBullet(detail: ExactDetail): string {
  return detail.context ? `\n- ${detail.text} (${detail.context})` : `\n- ${detail.text}`;
}

/** The line that stands for folded details in the list: never a silent drop. */
export function foldedDetailsLine(folded: number): string {
  return `\n- (${folded} exact detail${folded === 1 ? '' : 's'} folded to fit; recall finds them)`;
}
