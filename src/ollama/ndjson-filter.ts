/** The longest NDJSON line accepted: far above any real chunk, far below what exhausts memory. */
export const MAX_NDJSON_LINE_CHARS = 16 * 1024 * 1024;

/** A stream line grew past the cap without a line break (not an Ollama server, or a broken one). */
export class OversizedLineError extends Error {
  constructor(readonly maxChars: number) {
    super(`a stream line exceeded ${maxChars} characters`);
    this.name = 'OversizedLineError';
  }
}

/**
 * Passes on only the NDJSON lines of a byte stream that are JSON objects. The npm client
 * `console.warn`s every malformed line (which would print over Ink's UI) and crashes on a line that
 * is valid JSON but not an object, so such lines are dropped before it sees them. Each chunk is
 * scanned once (linear time however long a line grows), the lines it completes go on as one chunk,
 * and a line longer than `maxLineChars` fails with `OversizedLineError` instead of growing without bound.
 */
export async function* ndjsonObjectLines(
  chunks: AsyncIterable<Uint8Array>,
  onDropped?: (line: string) => void,
  maxLineChars = MAX_NDJSON_LINE_CHARS,
): AsyncIterable<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending: string[] = [];
  let pendingChars = 0;
  /** Adds a piece of the current line, refusing a line that grew too long. */
  const hold = (piece: string) => {
    pendingChars += piece.length;
    if (pendingChars > maxLineChars) throw new OversizedLineError(maxLineChars);
    if (piece) pending.push(piece);
  };
  const takeLine = (): string => {
    const line = pending.length === 1 ? pending[0] : pending.join('');
    pending = [];
    pendingChars = 0;
    return line;
  };
  const kept = (line: string): string => {
    if (line.trim() === '') return '';
    if (isJsonObject(line)) return `${line}\n`;
    onDropped?.(line);
    return '';
  };
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    let out = '';
    let start = 0;
    try {
      for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
        if (pending.length === 0) {
          if (newline - start > maxLineChars) throw new OversizedLineError(maxLineChars);
          out += kept(text.slice(start, newline));
        } else {
          hold(text.slice(start, newline));
          out += kept(takeLine());
        }
        start = newline + 1;
      }
      hold(text.slice(start));
    } finally {
      // Lines completed before an oversized one still go on (the partial reply keeps them).
      if (out) yield encoder.encode(out);
    }
  }
  hold(decoder.decode());
  const last = kept(takeLine());
  if (last) yield encoder.encode(last);
}

function isJsonObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
