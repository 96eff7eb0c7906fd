/**
 * Strips terminal control sequences from untrusted text (model output, tool output, pasted input)
 * so that it can only ever print characters: no colours, cursor moves, titles, hyperlinks or
 * device queries reach the terminal except the styling ochat adds itself.
 */

// Cheap pre-check: most streamed chunks contain no control character at all.
const HAS_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

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

/** Returns `text` with every terminal control sequence removed; `\r\n` becomes `\n`, lone `\r` goes. */
export function sanitizeTerminalText(text: string): string {
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(/\r\n/g, '\n').replace(CONTROL_SEQUENCE, '');
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
  if (!HAS_CONTROL.test(text)) return text.length;
  let last: RegExpExecArray | undefined;
  for (const match of text.matchAll(CONTROL_SEQUENCE)) last = match;
  if (!last || last.index + last[0].length < text.length) return text.length;
  const probe = new RegExp(CONTROL_SEQUENCE.source, 'y').exec(`${last[0]}x`);
  return probe && probe[0].length > last[0].length ? last.index : text.length;
}
