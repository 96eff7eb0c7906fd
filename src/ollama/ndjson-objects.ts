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
 * The JSON objects of an NDJSON byte stream, each line parsed once. Lines that are not JSON
 * objects (malformed, or valid JSON of another kind) are dropped and passed to `onDropped`: a
 * stray line must neither end the reply nor print over the UI. Each chunk is scanned once (linear
 * time however long a line grows), and a line longer than `maxLineChars` fails with
 * `OversizedLineError` instead of growing without bound.
 */
export async function* ndjsonObjects(
  chunks: AsyncIterable<Uint8Array>,
  onDropped?: (line: string) => void,
  maxLineChars = MAX_NDJSON_LINE_CHARS,
): AsyncIterable<Record<string, unknown>> {
  const decoder = new TextDecoder();
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
  const parsed = (line: string): Record<string, unknown> | undefined => {
    if (line.trim() === '') return undefined;
    const value = jsonObject(line);
    if (value === undefined) onDropped?.(line);
    return value;
  };
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      let line: string;
      if (pending.length === 0) {
        if (newline - start > maxLineChars) throw new OversizedLineError(maxLineChars);
        line = text.slice(start, newline);
      } else {
        hold(text.slice(start, newline));
        line = takeLine();
      }
      start = newline + 1;
      const value = parsed(line);
      if (value) yield value;
    }
    hold(text.slice(start));
  }
  hold(decoder.decode());
  const last = parsed(takeLine());
  if (last) yield last;
}

function jsonObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
