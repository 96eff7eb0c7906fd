/**
 * Strips terminal control sequences from untrusted text (model output, tool output, pasted input)
 * so that it can only ever print characters: no colours, cursor moves, titles, hyperlinks or
 * device queries reach the terminal except the styling ochat adds itself.
 */

// Cheap pre-check: most streamed chunks contain no control character at all.
const HAS_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

// Bidirectional embeddings, overrides and isolates reorder what a terminal shows ("Trojan
// Source"): shown as `<U+202E>`, as the confirmation shows them. The marks (U+200E, U+200F) and
// the joiners scripts and emoji need (U+200C, U+200D) stay.
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/g;
// Line and paragraph separators break a line without a newline: they become one.
const LINE_SEPARATOR = /[\u2028\u2029]/g;

/** The bidi controls of `text` made visible, its line and paragraph separators made newlines. */
function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROL, codePoint).replace(LINE_SEPARATOR, '\n');
}

/** `<U+202E>`: a character shown by its code point. */
function codePoint(char: string): string {
  return `<U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

// Order matters: string sequences (OSC/DCS/APC/PM/SOS) and CSI before the single-ESC form,
// which would otherwise eat only their introducer and leave the payload visible.
const CONTROL_SEQUENCE = new RegExp(
  [
    // OSC, DCS, SOS, PM, APC (7-bit ESC x or 8-bit C1 introducer) up to BEL, ST or end of text.
    '(?:\\x1b[\\]PX^_]|[\\x90\\x98\\x9d\\x9e\\x9f])[\\s\\S]*?(?:\\x07|\\x1b\\\\|\\x9c|$)',
    // CSI (incl. SGR): parameters, intermediates, final byte (may be missing at a chunk end).
    '(?:\\x1b\\[|\\x9b)[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?',
    // Other ESC sequences: ESC, optional intermediates (charset selection), one final byte.
    '\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]?',
    // Remaining C0 controls except \t and \n, DEL and C1 controls.
    '[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]',
  ].join('|'),
  'g',
);

/**
 * Returns `text` with every terminal control sequence removed; `\r\n` becomes `\n`, lone `\r` goes;
 * bidi controls are shown as `<U+202E>`, U+2028 and U+2029 become line breaks.
 */
export function sanitizeTerminalText(text: string): string {
  // Stryker disable next-line ConditionalExpression: a fast path; without a control character the replacements below change nothing
  if (!HAS_CONTROL.test(text)) return text;
  return showBidiControls(text.replace(/\r\n/g, '\n').replace(CONTROL_SEQUENCE, ''));
}

/** Sanitizes a text that arrives in pieces; see {@link createStreamSanitizer}. */
export interface StreamSanitizer {
  /** Takes the next piece; returns the sanitized text that is final so far. */
  push(piece: string): string;
  /** Returns whatever is still held back, sanitized. */
  end(): string;
}

/**
 * For text written to the terminal as it streams (one-shot mode): a control sequence split
 * across pieces is held back until it is complete, so no part of it leaks out as text.
 */
export function createStreamSanitizer(): StreamSanitizer {
  let held = '';
  return {
    push(piece) {
      const text = held + piece;
      const cut = unfinishedSequenceStart(text);
      held = text.slice(cut);
      // Stryker disable next-line MethodExpression: what is held back is an unfinished sequence, which sanitizes to nothing
      return sanitizeTerminalText(text.slice(0, cut));
    },
    end() {
      const rest = held;
      held = '';
      return sanitizeTerminalText(rest);
    },
  };
}

/** Where a control sequence that the next piece could still extend starts; `text.length` if none. */
function unfinishedSequenceStart(text: string): number {
  // Stryker disable next-line ConditionalExpression: a fast path; without a control character nothing below matches
  if (!HAS_CONTROL.test(text)) return text.length;
  let last: RegExpExecArray | undefined;
  for (const match of text.matchAll(CONTROL_SEQUENCE)) last = match;
  if (!last || last.index + last[0].length < text.length) return text.length;
  // Stryker disable next-line StringLiteral: the probe starts with the sequence, so its first match is at 0 with or without the sticky flag
  const probe = new RegExp(CONTROL_SEQUENCE.source, 'y').exec(`${last[0]}x`);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: holding back a sequence that is already complete changes no output: it sanitizes to nothing either way
  return probe && probe[0].length > last[0].length ? last.index : text.length;
}

// Characters that change how the rest of a line looks without printing anything themselves:
// bidirectional overrides and isolates, zero-width characters, the byte-order mark, and the
// line and paragraph separators (U+2028, U+2029) that break a line without a newline.
const INVISIBLE_FORMAT = /[\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const CONTROL_OR_INVISIBLE = new RegExp(`[\\x00-\\x1f\\x7f-\\x9f]|${INVISIBLE_FORMAT.source}`, 'g');

/**
 * The one visible form of text a person must judge (a tool confirmation, and every later showing
 * of the same call: its transcript line, the tool log, the session's summary): every control character
 * and invisible format character is shown as a visible symbol instead of removed, so nothing in
 * it can hide, move or rewrite what is shown. C0 controls become their Unicode control pictures
 * (`␛`, `␇`, `␊`), DEL `␡`, the rest `<U+XXXX>`.
 */
export function showControlCharacters(text: string): string {
  return text.replace(CONTROL_OR_INVISIBLE, (char) => {
    const code = char.charCodeAt(0);
    // Stryker disable next-line EqualityOperator: a space (0x20) never gets here: the pattern matches no printable character
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '␡';
    return codePoint(char);
  });
}

/**
 * What may reach the terminal through a guarded stream besides text: `text` lets nothing else
 * through (stderr, one-shot stdout); `ink` also lets through the sequences Ink and ochat write
 * themselves: SGR styling, cursor moves and erasing, and the private modes they set.
 */
export type TerminalOutputPolicy = 'text' | 'ink';

// Ink's own: cursor moves/erase (ansi-escapes), SGR, cursor visibility, synchronized output,
// bracketed paste (and ochat's query whether the terminal has it) and the kitty keyboard
// protocol. Strings (OSC, DCS, APC…) and C1 never pass.
const INK_OWN_SEQUENCE =
  /^(?:\x1b\[[0-9;]*[A-HJKm]|\x1b\[\?(?:25|2004|2026)[hl]|\x1b\[\?2004\$p|\x1b\[[<>?][0-9;]*u|\r)$/;

/**
 * The clipboard sequence (OSC 52) `/copy` is writing right now: the only string sequence that
 * passes a guarded stream, once, and only when written through {@link writeClipboard}.
 */
let ownClipboardWrite: string | undefined;

/** Puts `text` on the terminal's clipboard (OSC 52): ochat's own sequence, never one from a model. */
export function writeClipboard(stream: Pick<NodeJS.WritableStream, 'write'>, text: string): void {
  const sequence = `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
  ownClipboardWrite = sequence;
  try {
    stream.write(sequence);
  } finally {
    ownClipboardWrite = undefined;
  }
}

/** Filters one write for `policy`; see {@link guardTerminalOutput}. */
export function filterTerminalOutput(text: string, policy: TerminalOutputPolicy): string {
  if (ownClipboardWrite !== undefined && text === ownClipboardWrite) return text;
  if (policy === 'text') return sanitizeTerminalText(text);
  // Stryker disable next-line ConditionalExpression: a fast path; without a control character the replacement below changes nothing
  if (!HAS_CONTROL.test(text)) return text;
  // A separator here missed the sanitizer of its text, and a newline Ink did not lay out would
  // shift its frame: shown by its code point, as a bidi control is.
  return text
    .replace(CONTROL_SEQUENCE, (sequence) => (INK_OWN_SEQUENCE.test(sequence) ? sequence : ''))
    .replace(BIDI_CONTROL, codePoint)
    .replace(LINE_SEPARATOR, codePoint);
}

/** The part of a writable stream the guard replaces. */
interface GuardableStream {
  write: NodeJS.WritableStream['write'];
}

/**
 * The one boundary where text leaves for the terminal: from now on every write to `stream`
 * (whoever makes it: the UI, one-shot output, an error message, a library) is filtered by
 * `policy`, so no caller can forget to sanitize untrusted text.
 */
export function guardTerminalOutput(stream: GuardableStream, policy: TerminalOutputPolicy): void {
  const write = stream.write.bind(stream) as (chunk: string, ...rest: unknown[]) => boolean;
  const decoder = new TextDecoder('utf-8');
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    // A string's encoding argument no longer applies to the decoded text.
    const args = typeof chunk === 'string' ? rest : rest.filter((arg) => typeof arg === 'function');
    return write(filterTerminalOutput(text, policy), ...args);
  }) as GuardableStream['write'];
}
