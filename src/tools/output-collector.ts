import { cutNote } from './cap-output.js';

/** Accumulates streamed output in bounded memory: the head and a rolling tail, counting what fell between. */
export interface OutputCollector {
  push(chunk: string): void;
  /** Everything pushed, or its head and tail around a `[… n characters cut …]` note. */
  text(): string;
}

/** Creates a collector that keeps at most about `maxChars` characters of a long-running command's output. */
export function createOutputCollector(maxChars: number): OutputCollector {
  const headLimit = Math.ceil(maxChars / 2);
  const tailLimit = maxChars - headLimit;
  let head = '';
  let tail = '';
  let cut = 0;
  return {
    push(chunk) {
      if (head.length < headLimit) {
        const room = headLimit - head.length;
        head += chunk.slice(0, room);
        chunk = chunk.slice(room);
      }
      tail += chunk;
      // Trim lazily (at twice the limit) so a stream of small chunks is not quadratic.
      if (tail.length > 2 * tailLimit) {
        cut += tail.length - tailLimit;
        tail = tail.slice(tail.length - tailLimit);
      }
    },
    text() {
      if (tail.length > tailLimit) {
        cut += tail.length - tailLimit;
        tail = tail.slice(tail.length - tailLimit);
      }
      return cut === 0 ? head + tail : `${head}\n${cutNote(cut)}\n${tail}`;
    },
  };
}
