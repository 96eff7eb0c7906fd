/** Lines of a server's stderr kept for `/mcp` and its failure report. */
export const STDERR_TAIL_LINES = 12;
/** Longest line kept: a server that writes one endless line cannot fill memory. */
const MAX_LINE_CHARS = 400;

/**
 * The last lines a server wrote to stderr (which would otherwise be written over Ink's screen).
 * Memory stays bounded however much it writes.
 */
export class StderrTail {
  #lines: string[] = [];
  #partial = '';
  /** Lines seen in all, kept or not. */
  total = 0;

  push(chunk: string): void {
    const parts = `${this.#partial}${chunk}`.split(/\r?\n/);
    this.#partial = (parts.pop() ?? '').slice(-MAX_LINE_CHARS);
    for (const line of parts) this.#add(line);
  }

  #add(line: string): void {
    this.total++;
    this.#lines.push(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line);
    if (this.#lines.length > STDERR_TAIL_LINES) this.#lines.shift();
  }

  /** The kept lines, oldest first, with an unfinished last line too. */
  lines(): string[] {
    return this.#partial ? [...this.#lines, this.#partial] : [...this.#lines];
  }

  clear(): void {
    this.#lines = [];
    this.#partial = '';
    this.total = 0;
  }
}
