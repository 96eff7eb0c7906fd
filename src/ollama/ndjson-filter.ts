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
 * A byte-stream transform that passes on only the NDJSON lines that are JSON objects. The npm
 * client `console.warn`s every malformed line (which would print over Ink's UI) and crashes on a
 * line that is valid JSON but not an object, so such lines are dropped before it sees them. Each
 * chunk is scanned once (linear time however long a line grows), and a line longer than
 * `maxLineChars` errors the stream with `OversizedLineError` instead of growing without bound.
 */
export function ndjsonObjectFilter(
  onDropped?: (line: string) => void,
  maxLineChars = MAX_NDJSON_LINE_CHARS,
): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending: string[] = [];
  let pendingChars = 0;
  const pass = (line: string, controller: TransformStreamDefaultController<Uint8Array>) => {
    if (line.trim() === '') return;
    if (isJsonObject(line)) controller.enqueue(encoder.encode(`${line}\n`));
    else onDropped?.(line);
  };
  /** Adds a piece of the current line; false (and the stream errored) when the line is too long. */
  const hold = (piece: string, controller: TransformStreamDefaultController<Uint8Array>): boolean => {
    pendingChars += piece.length;
    if (pendingChars > maxLineChars) {
      pending = [];
      controller.error(new OversizedLineError(maxLineChars));
      return false;
    }
    if (piece) pending.push(piece);
    return true;
  };
  const takeLine = (): string => {
    const line = pending.join('');
    pending = [];
    pendingChars = 0;
    return line;
  };
  return new TransformStream({
    transform(chunk, controller) {
      const text = decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
        if (!hold(text.slice(start, newline), controller)) return;
        pass(takeLine(), controller);
        start = newline + 1;
      }
      hold(text.slice(start), controller);
    },
    flush(controller) {
      if (hold(decoder.decode(), controller)) pass(takeLine(), controller);
    },
  });
}

function isJsonObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
