/**
 * Terminal control sequences a hostile model, tool or server might send, for the tests of the
 * output boundary. Each carries a marker that is never printable text when the sequence is obeyed
 * or removed whole; a marker on screen or in the raw output means the sequence leaked in part.
 */

/** One hostile sequence: its name, the text, and a marker that must not reach the output. */
export interface HostileSequence {
  name: string;
  text: string;
  /** Present in the raw output only if (part of) the sequence got through. */
  leak: string;
}

export const HOSTILE_SEQUENCES: readonly HostileSequence[] = [
  { name: 'OSC 0 title (BEL)', text: '\x1b]0;pwn-osc0\x07', leak: 'pwn-osc0' },
  { name: 'OSC 2 title (ST)', text: '\x1b]2;pwn-osc2\x1b\\', leak: 'pwn-osc2' },
  { name: 'OSC 8 hyperlink', text: '\x1b]8;;http://pwn-osc8.example\x07link\x1b]8;;\x07', leak: 'pwn-osc8' },
  { name: 'OSC 52 clipboard', text: '\x1b]52;c;cHduLW9zYzUy\x07', leak: 'cHduLW9zYzUy' },
  { name: 'CSI 2J clear screen', text: '\x1b[2J', leak: '\x1b[2J' },
  { name: 'CSI cursor moves', text: '\x1b[7A\x1b[13;17H\x1b[3D', leak: '\x1b[13;17H' },
  { name: 'DCS', text: '\x1bP+qpwn-dcs\x1b\\', leak: 'pwn-dcs' },
  { name: 'APC', text: '\x1b_Gpwn-apc\x1b\\', leak: 'pwn-apc' },
  { name: 'C1 CSI', text: '\x9b6n', leak: '\x9b' },
  { name: 'C1 OSC', text: '\x9d0;pwn-c1osc\x9c', leak: 'pwn-c1osc' },
];

/** Every hostile sequence in one text, with a word between them. */
export const ALL_HOSTILE = HOSTILE_SEQUENCES.map((s, i) => `w${i} ${s.text}`).join(' ');

/** What leaked of the hostile sequences into `output`: the names of those whose marker is there. */
export function leakedSequences(output: string): string[] {
  return HOSTILE_SEQUENCES.filter((s) => output.includes(s.leak)).map((s) => s.name);
}

/** Control characters in text that should be plain (stderr, one-shot stdout). */
export function controlCharactersIn(text: string): string[] {
  return [...text.matchAll(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g)].map(
    (m) => `U+${m[0].charCodeAt(0).toString(16)}`,
  );
}

/**
 * The hostile sequences that would act on a terminal if found in raw output (their introducers
 * and the exact cursor moves and clears of {@link HOSTILE_SEQUENCES}); text that merely shows
 * them (`␛]0;…`) does not count.
 */
export function actingSequencesIn(raw: string): string[] {
  const acting = ['\x1b]', '\x1bP', '\x1b_', '\x1b[7A', '\x1b[13;17H', '\x1b[3D', '\x1b[2J'];
  return [
    ...acting.filter((s) => raw.includes(s)).map((s) => JSON.stringify(s)),
    ...[...raw.matchAll(/[\x80-\x9f]/g)].map((m) => `U+${m[0].charCodeAt(0).toString(16)}`),
  ];
}
