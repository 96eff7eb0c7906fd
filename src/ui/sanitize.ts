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
