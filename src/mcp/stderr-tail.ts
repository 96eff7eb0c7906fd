import type { Readable } from 'node:stream';
import { formatBytes } from '../text/format-bytes.js';

/** Lines of a server's stderr kept for `/mcp` and its failure report. */
export const STDERR_TAIL_LINES = 12;
/** Longest line kept: a server that writes one endless line cannot fill memory. */
const MAX_LINE_CHARS = 400;
/** Most of a server's stderr read per window: at 2.6 MB/s reading it costs ochat a few % of a core. */
export const STDERR_BYTES_PER_WINDOW = 256 * 1024;
export const STDERR_WINDOW_MS = 100;

/**
 * The last lines a server wrote to stderr (which would otherwise be written over Ink's screen).
 * Memory stays bounded however much it writes, and so does the work: of each slice read only the
 * end that can hold the lines kept is decoded; the rest is counted and dropped.
 */
export class StderrTail {
  #lines: string[] = [];
  #partial = '';
  /** Bytes it wrote in all, kept or not. */
  bytes = 0;
  /** Reading waited at least once: it writes faster than {@link followStderr} reads. */
  throttled = false;

  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.bytes += bytes.length;
    // Where the last STDERR_TAIL_LINES + 1 line ends begin: everything before them is dropped.
    let cut = bytes.length;
    let newlines = 0;
    while (newlines <= STDERR_TAIL_LINES && cut > 0) {
      const before = bytes.lastIndexOf(0x0a, cut - 1);
      if (before < 0) break;
      cut = before;
      newlines++;
    }
    let text: string;
    if (newlines > STDERR_TAIL_LINES) {
      this.#lines = [];
      this.#partial = '';
      text = bytes.toString('utf8', cut + 1);
    } else text = `${this.#partial}${bytes.toString('utf8')}`;
    const parts = text.split(/\r?\n/);
    this.#partial = (parts.pop() ?? '').slice(-MAX_LINE_CHARS);
    for (const line of parts) this.#add(line);
  }

  #add(line: string): void {
    this.#lines.push(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line);
    if (this.#lines.length > STDERR_TAIL_LINES) this.#lines.shift();
  }

  /** The kept lines, oldest first, with an unfinished last line too. */
  lines(): string[] {
    return this.#partial ? [...this.#lines, this.#partial] : [...this.#lines];
  }

  /**
   * What was not kept, in words for `/mcp` (`812 MB of stderr, all but the last 12 lines
   * dropped; …`); undefined when every line it wrote is kept.
   */
  droppedNote(): string | undefined {
    const kept = this.lines().reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    if (this.bytes <= kept) return undefined;
    const pace = formatBytes((STDERR_BYTES_PER_WINDOW * 1000) / STDERR_WINDOW_MS);
    return `${formatBytes(this.bytes)} of stderr, all but the last ${STDERR_TAIL_LINES} lines dropped${
      this.throttled ? `; it writes faster than ochat reads it (${pace}/s), so its writes wait` : ''
    }`;
  }

  clear(): void {
    this.#lines = [];
    this.#partial = '';
    this.bytes = 0;
    this.throttled = false;
  }
}

/**
 * Reads a server's stderr into `tail` in bounded slices: at most {@link STDERR_BYTES_PER_WINDOW}
 * per {@link STDERR_WINDOW_MS}, then the stream pauses until the next window. A server that floods
 * stderr kept ochat at 85% of a core reading it as fast as the pipe filled; now its writes wait
 * for the pipe, as they would on a slow terminal.
 */
export function followStderr(stream: Readable, tail: StderrTail): void {
  let budget = STDERR_BYTES_PER_WINDOW;
  let windowStart = Date.now();
  stream.on('data', (chunk: Buffer) => {
    tail.push(chunk);
    const now = Date.now();
    if (now - windowStart >= STDERR_WINDOW_MS) {
      windowStart = now;
      budget = STDERR_BYTES_PER_WINDOW;
    }
    budget -= chunk.length;
    if (budget > 0) return;
    tail.throttled = true;
    stream.pause();
    setTimeout(
      () => {
        windowStart = Date.now();
        budget = STDERR_BYTES_PER_WINDOW;
        stream.resume();
      },
      Math.max(1, windowStart + STDERR_WINDOW_MS - now),
    ).unref();
  });
}
