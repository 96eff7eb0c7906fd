/**
 * A byte-stream transform that passes on only the NDJSON lines that are JSON objects. The npm
 * client `console.warn`s every malformed line (which would print over Ink's UI) and crashes on a
 * line that is valid JSON but not an object, so such lines are dropped before it sees them.
 */
export function ndjsonObjectFilter(
  onDropped?: (line: string) => void,
): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  const pass = (line: string, controller: TransformStreamDefaultController<Uint8Array>) => {
    if (line.trim() === '') return;
    if (isJsonObject(line)) controller.enqueue(encoder.encode(`${line}\n`));
    else onDropped?.(line);
  };
  return new TransformStream({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) pass(line, controller);
    },
    flush(controller) {
      pass(buffer + decoder.decode(), controller);
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
