import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createStreamSanitizer,
  filterTerminalOutput,
  sanitizeTerminalText,
} from '../../src/text/sanitize.js';
import { HOSTILE_SEQUENCES } from '../support/hostile-text.js';

describe('sanitizeTerminalText', () => {
  it('leaves plain text, newlines, tabs and unicode untouched', () => {
    const text = 'Hello, wörld! 你好 🎉 café\n\tindented — “quotes” ±';
    expect(sanitizeTerminalText(text)).toBe(text);
  });

  it('removes SGR colours and other CSI sequences', () => {
    expect(sanitizeTerminalText('\x1b[31mred\x1b[0m and \x1b[1;38;5;208mbold\x1b[m')).toBe('red and bold');
    expect(sanitizeTerminalText('a\x1b[2Jb\x1b[10;5Hc\x1b[?25ld\x1b[Ke')).toBe('abcde');
  });

  it('removes 8-bit CSI (0x9b) with its parameters', () => {
    expect(sanitizeTerminalText('x\x9b31my')).toBe('xy');
  });

  it('removes OSC hyperlinks and titles terminated by BEL or ST', () => {
    expect(sanitizeTerminalText('\x1b]8;;https://evil.example\x07click\x1b]8;;\x07')).toBe('click');
    expect(sanitizeTerminalText('\x1b]0;pwned title\x1b\\after')).toBe('after');
    expect(sanitizeTerminalText('\x9d2;title\x9cok')).toBe('ok');
  });

  it('removes an unterminated OSC to the end of the text', () => {
    expect(sanitizeTerminalText('keep\x1b]8;;https://evil')).toBe('keep');
  });

  it('removes DCS, APC, PM and SOS strings', () => {
    expect(sanitizeTerminalText('a\x1bPq#0;2;0;0;0\x1b\\b')).toBe('ab');
    expect(sanitizeTerminalText('a\x1b_Gf=100;data\x1b\\b')).toBe('ab');
    expect(sanitizeTerminalText('a\x1b^privacy\x1b\\b')).toBe('ab');
    expect(sanitizeTerminalText('a\x1bXsos\x1b\\b')).toBe('ab');
  });

  it('removes single ESC + char sequences and charset selections', () => {
    expect(sanitizeTerminalText('a\x1bcb\x1b7c\x1b8d\x1b(Be\x1b=f')).toBe('abcdef');
    expect(sanitizeTerminalText('trailing\x1b')).toBe('trailing');
  });

  it('removes C0 (except \\n, \\t) and C1 controls', () => {
    expect(sanitizeTerminalText('a\x00b\x07c\x08d\x0be\x0cf\x7fg\x85h\x80i\x8e')).toBe('abcdefghi');
  });

  it('turns \\r\\n into \\n and drops lone \\r', () => {
    expect(sanitizeTerminalText('one\r\ntwo\rthree\n')).toBe('one\ntwothree\n');
  });

  it('never leaves ESC, C1 or BEL in its output (property)', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom('\x1b', '\x1b[', '\x1b]', '\x07', '\x9b', '\x9d', '\r', '\x1b\\', '31m', ';'),
    );
    fc.assert(
      fc.property(fc.array(piece), (pieces) => {
        const out = sanitizeTerminalText(pieces.join(''));
        expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      }),
    );
  });

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = sanitizeTerminalText(text);
        expect(sanitizeTerminalText(once)).toBe(once);
      }),
    );
  });
});

/** Every kind of sequence the sanitizer removes, each between visible text. */
const SEQUENCE_KINDS: Record<string, string> = {
  'SGR colour': '\x1b[1;38;5;208m',
  'CSI with private parameter': '\x1b[?25l',
  'CSI with intermediate byte': '\x1b[2 q',
  '8-bit CSI': '\x9b31m',
  'OSC title ended by BEL': '\x1b]0;pwned title\x07',
  'OSC hyperlink ended by ST': '\x1b]8;;https://evil.example\x1b\\',
  '8-bit OSC ended by 8-bit ST': '\x9d2;pwned\x9c',
  DCS: '\x1bPq#0;2;0;0;0\x1b\\',
  APC: '\x1b_Gf=100;data\x1b\\',
  PM: '\x1b^privacy\x1b\\',
  SOS: '\x1bXsos\x1b\\',
  'ESC + one character': '\x1bc',
  'charset selection': '\x1b(B',
  'C0 control': '\x07',
  'C1 control': '\x85',
  'lone CR': '\r',
};

/** Sanitizes `pieces` as one stream, collecting each push's output. */
function streamed(pieces: string[]): { outputs: string[]; text: string } {
  const sanitizer = createStreamSanitizer();
  const outputs = pieces.map((piece) => sanitizer.push(piece));
  outputs.push(sanitizer.end());
  return { outputs, text: outputs.join('') };
}

describe('createStreamSanitizer', () => {
  for (const [kind, sequence] of Object.entries(SEQUENCE_KINDS)) {
    it(`removes ${kind} split at every position across two chunks`, () => {
      const text = `before${sequence}after`;
      for (let at = 0; at <= text.length; at++) {
        const { outputs, text: out } = streamed([text.slice(0, at), text.slice(at)]);
        expect(out, `split at ${at}`).toBe('beforeafter');
        // Nothing of the sequence leaks out of either piece on its own either.
        for (const output of outputs)
          expect(output).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]|pwned|evil|data/);
      }
    });
  }

  it('keeps CRLF as one line break when split between the CR and the LF', () => {
    expect(streamed(['one\r', '\ntwo']).text).toBe('one\ntwo');
  });

  it('holds back only a sequence at the very end: text after a finished one comes out at once', () => {
    const sanitizer = createStreamSanitizer();
    // ESC ( is complete before é (a charset selection may take one more byte, but é is not one).
    expect(sanitizer.push('a\x1b(é more')).toBe('aé more');
    expect(sanitizer.push(' and \x1b[31mred')).toBe(' and red');
  });

  it('passes plain text through at once, holding nothing back', () => {
    const sanitizer = createStreamSanitizer();
    expect(sanitizer.push('Hello, ')).toBe('Hello, ');
    expect(sanitizer.push('wörld 🎉\n')).toBe('wörld 🎉\n');
    expect(sanitizer.end()).toBe('');
  });

  it('holds back an unfinished sequence until it is complete, then goes on', () => {
    const sanitizer = createStreamSanitizer();
    expect(sanitizer.push('red: \x1b[3')).toBe('red: ');
    expect(sanitizer.push('1mtext')).toBe('text');
    expect(sanitizer.push(' \x1b]0;ti')).toBe(' ');
    expect(sanitizer.push('tle\x07done')).toBe('done');
    expect(sanitizer.end()).toBe('');
  });

  it('starts clean after end(): nothing held back leaks into the next stream', () => {
    const sanitizer = createStreamSanitizer();
    expect(sanitizer.push('a\x1b]0;unfinished')).toBe('a');
    expect(sanitizer.end()).toBe('');
    expect(sanitizer.push('fresh')).toBe('fresh');
  });

  it('drops a sequence still unfinished at the end', () => {
    const sanitizer = createStreamSanitizer();
    expect(sanitizer.push('keep\x1b]8;;https://evil')).toBe('keep');
    expect(sanitizer.end()).toBe('');
    expect(streamed(['trailing\x1b']).text).toBe('trailing');
  });

  it('gives the same text as sanitizing the whole, however the stream is cut (property)', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(...Object.values(SEQUENCE_KINDS), '\r\n', '\x1b', '\x1b['),
    );
    fc.assert(
      fc.property(fc.array(piece), fc.array(fc.nat()), (pieces, cuts) => {
        const text = pieces.join('');
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((from, i) => text.slice(from, [...points, text.length][i]));
        expect(streamed(chunks).text).toBe(sanitizeTerminalText(text));
      }),
    );
  });
});

describe('showControlCharacters', () => {
  it('shows every control character as a visible symbol, keeping the rest', async () => {
    const { showControlCharacters } = await import('../../src/text/sanitize.js');
    expect(showControlCharacters('echo safe \x1b]2;x;touch HIDDEN;\x07')).toBe(
      'echo safe ␛]2;x;touch HIDDEN;␇',
    );
    expect(showControlCharacters('a\nb\tc\rd\x7fe\x9bf')).toBe('a␊b␉c␍d␡e<U+009B>f');
    // Invisible format characters that reorder or hide text (Trojan Source) are named too.
    expect(showControlCharacters('rm \u202eevil\u200b')).toBe('rm <U+202E>evil<U+200B>');
    expect(showControlCharacters('plain — ünïcode 你好')).toBe('plain — ünïcode 你好');
  });

  it('leaves no control character in any text', async () => {
    const { showControlCharacters } = await import('../../src/text/sanitize.js');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(showControlCharacters(text)).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
      }),
    );
  });
});

describe('guardTerminalOutput', () => {
  async function guarded(policy: 'text' | 'ink') {
    const { guardTerminalOutput } = await import('../../src/text/sanitize.js');
    const written: string[] = [];
    const stream = { write: ((chunk: string) => written.push(chunk) > 0) as NodeJS.WritableStream['write'] };
    guardTerminalOutput(stream, policy);
    return { stream, output: () => written.join('') };
  }

  it.each(HOSTILE_SEQUENCES.map((s) => [s.name, s] as const))('text: removes %s', async (_, sequence) => {
    const { stream, output } = await guarded('text');
    stream.write(`before ${sequence.text} after`);
    expect(output()).not.toContain(sequence.leak);
    expect(output()).toMatch(/^before .*after$/);
    expect(output()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });

  it.each(HOSTILE_SEQUENCES.filter((s) => !s.name.startsWith('CSI')).map((s) => [s.name, s] as const))(
    'ink: removes %s',
    async (_, sequence) => {
      const { stream, output } = await guarded('ink');
      stream.write(`before ${sequence.text} after`);
      expect(output()).not.toContain(sequence.leak);
    },
  );

  it('ink: keeps what Ink itself writes (styles, cursor moves, erasing, its modes)', async () => {
    const { stream, output } = await guarded('ink');
    const frame =
      '\x1b[?2026h\x1b[2K\x1b[1A\x1b[2K\x1b[G\x1b[1m\x1b[36m✻ ochat\x1b[39m\x1b[22m\r\n\x1b[?25l\x1b[2J\x1b[3J\x1b[H\x1b[?2004h\x1b[?2004$p\x1b[>1u\x1b[<u\x1b[?2026l';
    stream.write(frame);
    expect(output()).toBe(frame);
  });

  it('ink: lets through only the bracketed-paste query among the mode requests (DECRQM)', async () => {
    const { stream, output } = await guarded('ink');
    stream.write('a\x1b[?2004$pb\x1b[?1049$pc\x1b[?2004;1$yd');
    expect(output()).toBe('a\x1b[?2004$pbcd');
  });

  it('ink: removes the CSI sequences Ink never writes (queries, screen modes, scroll regions, mouse)', async () => {
    const { stream, output } = await guarded('ink');
    // A device query makes the terminal type its answer into ochat's input; modes change the screen.
    for (const sequence of [
      '\x1b[6n',
      '\x1b[c',
      '\x1b[>c',
      '\x1b[?1049h',
      '\x1b[?1000h',
      '\x1b[?25;1049h',
      '\x1b[2;5r',
      '\x1b[5i',
      '\x1b[?2004x',
      '\x1b[1u',
      '\x1b[=1u',
      '\x1b[1;2;3S',
      '\x1b[4L',
      '\x1b[!p',
    ]) {
      stream.write(`a${sequence}b`);
    }
    expect(output()).toBe('ab'.repeat(14));
  });

  it('ink: an unterminated string sequence ending in something Ink writes is still removed whole', async () => {
    const { stream, output } = await guarded('ink');
    stream.write('a\x1b]0;pwn-title\x1b[2J');
    stream.write('b\x9d0;pwn-c1\x1b[1m');
    expect(output()).toBe('ab');
  });

  it('a sequence split across writes never comes out whole', async () => {
    for (const policy of ['text', 'ink'] as const) {
      for (const { text, leak } of HOSTILE_SEQUENCES) {
        for (let cut = 1; cut < text.length; cut++) {
          const { stream, output } = await guarded(policy);
          stream.write(`a${text.slice(0, cut)}`);
          stream.write(`${text.slice(cut)}b`);
          // Pieces of a string sequence may show as text, but never an escape that acts.
          expect(output()).not.toMatch(/\x1b[\]P_^X]|[\x90\x98\x9b\x9d-\x9f]/);
          if (policy === 'text') expect(output()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
          if (leak.startsWith('\x1b') && policy === 'text') expect(output()).not.toContain(leak);
        }
      }
    }
  });

  it('decodes byte chunks, even a character split between two of them', async () => {
    const { stream, output } = await guarded('text');
    const bytes = Buffer.from('é\x1b]0;x\x07!');
    stream.write(bytes.subarray(0, 1) as unknown as string);
    stream.write(bytes.subarray(1) as unknown as string);
    expect(output()).toBe('é!');
  });
});

describe('writeClipboard', () => {
  it("passes ochat's own OSC 52 through a guarded stream once; the same bytes from anyone else are removed", async () => {
    const { guardTerminalOutput, writeClipboard } = await import('../../src/text/sanitize.js');
    const written: string[] = [];
    const stream = { write: ((chunk: string) => written.push(chunk) > 0) as NodeJS.WritableStream['write'] };
    guardTerminalOutput(stream, 'ink');
    writeClipboard(stream, 'def answer():');
    const own = `\x1b]52;c;${Buffer.from('def answer():').toString('base64')}\x07`;
    stream.write(own);
    stream.write(`model says ${own} here`);
    expect(written).toEqual([own, '', 'model says  here']);
  });
});

describe('bidi controls and line separators', () => {
  it('shows every bidi control as <U+XXXX>, separators as newlines, and keeps marks and joiners', () => {
    expect(sanitizeTerminalText('a\u202eb\u2066c\u2069d')).toBe('a<U+202E>b<U+2066>c<U+2069>d');
    expect(sanitizeTerminalText('one\u2028two\u2029three')).toBe('one\ntwo\nthree');
    expect(sanitizeTerminalText('👩\u200d💻 \u200c \u200e')).toBe('👩\u200d💻 \u200c \u200e');
    const stream = createStreamSanitizer();
    expect(stream.push('x\u202e') + stream.end()).toBe('x<U+202E>');
  });

  it('reaches no terminal raw through either guarded policy', () => {
    expect(filterTerminalOutput('a\u202ab\u2028', 'text')).toBe('a<U+202A>b\n');
    // In Ink's output a separator that missed its text's sanitizer is shown, not a newline Ink never laid out.
    expect(filterTerminalOutput('\x1b[1ma\u202db\u2029\x1b[22m', 'ink')).toBe(
      '\x1b[1ma<U+202D>b<U+2029>\x1b[22m',
    );
  });
});
