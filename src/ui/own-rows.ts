import { displayWidth } from '../text/terminal-rows.js';

/** The terminal ochat writes to: a stream with a width that says when it changes. */
export interface OwnRowsStream {
  write: NodeJS.WriteStream['write'];
  columns?: number;
  on(event: 'resize', listener: () => void): unknown;
}

/** One row on screen: its width in columns, and whether it continues the row above (wrapped). */
interface Row {
  width: number;
  continued: boolean;
}

// CSI sequences the tracker follows (cursor up/down, erase line/below); any other is skipped.
const SEQUENCE = /\x1b\[([\d;?]*)([A-Za-z])|\x1b[\]PX^_][\s\S]*?(?:\x07|\x1b\\)|\x1b[^[\]PX^_]|\r|\n/g;

/**
 * The rows ochat has written since it took over the terminal (or since its last redraw), as the
 * terminal now shows them: every write to the stream is followed (text, newlines, the cursor
 * moves and erasures Ink's frames are made of), and on a width change the rows are wrapped again
 * as terminals reflow them. A redraw can then erase exactly ochat's own rows, never the shell's
 * lines above them (clearing the whole screen and scrollback took the user's history with it).
 */
export class OwnRows {
  #rows: Row[] = [{ width: 0, continued: false }];
  #cursor = 0;
  #column = 0;
  #columns: number;

  constructor(stream: OwnRowsStream) {
    this.#columns = stream.columns || 80;
    const write = stream.write.bind(stream);
    // Installed before Ink's own listener, so Ink's erasure after a resize is read on the reflowed rows.
    stream.on('resize', () => this.reflow(stream.columns || 80));
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === 'string') this.follow(chunk);
      else if (chunk instanceof Uint8Array) this.follow(Buffer.from(chunk).toString('utf8'));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as NodeJS.WriteStream['write'];
  }

  /** Rows from ochat's first one down to the cursor's (exclusive): what a redraw erases going up. */
  get above(): number {
    return this.#cursor;
  }

  /**
   * The sequence that erases ochat's own rows and puts the cursor where its first one was: going
   * up over them when they are all on screen; else (the shell's lines are in the scrollback by
   * now) the visible screen only, the scrollback kept. Tracking starts afresh there.
   */
  eraseSequence(screenRows: number | undefined): string {
    const up = this.#cursor;
    const sequence =
      screenRows !== undefined && up >= screenRows ? '\x1b[H\x1b[2J' : `\r${up ? `\x1b[${up}A` : ''}\x1b[J`;
    this.#rows = [{ width: 0, continued: false }];
    this.#cursor = 0;
    this.#column = 0;
    return sequence;
  }

  private follow(text: string): void {
    let last = 0;
    for (const match of text.matchAll(SEQUENCE)) {
      if (match.index > last) this.text(text.slice(last, match.index));
      last = match.index + match[0].length;
      this.control(match[0], match[1], match[2]);
    }
    if (last < text.length) this.text(text.slice(last));
  }

  private control(whole: string, params: string | undefined, final: string | undefined): void {
    if (whole === '\n') this.moveTo(this.#cursor + 1, 0);
    else if (whole === '\r') this.#column = 0;
    const n = Number.parseInt(params || '1', 10) || 1;
    if (final === 'A') this.moveTo(Math.max(0, this.#cursor - n), this.#column);
    else if (final === 'B') this.moveTo(this.#cursor + n, this.#column);
    else if (final === 'E') this.moveTo(this.#cursor + n, 0);
    else if (final === 'F') this.moveTo(Math.max(0, this.#cursor - n), 0);
    else if (final === 'G') this.#column = n - 1;
    else if (final === 'K')
      this.row().width = params === '1' || params === '2' ? 0 : Math.min(this.row().width, this.#column);
    else if (final === 'J' && (!params || params === '0')) {
      this.#rows.length = this.#cursor + 1;
      this.row().width = Math.min(this.row().width, this.#column);
    }
  }

  private text(text: string): void {
    let width = displayWidth(text);
    while (width > 0) {
      const room = this.#columns - this.#column;
      const put = Math.min(room, width);
      this.#column += put;
      this.row().width = Math.max(this.row().width, this.#column);
      width -= put;
      // The terminal wraps what goes past the last column onto a new, continued row.
      if (width > 0) {
        this.moveTo(this.#cursor + 1, 0);
        this.row().continued = true;
      }
    }
  }

  private row(): Row {
    return this.#rows[this.#cursor];
  }

  private moveTo(row: number, column: number): void {
    while (this.#rows.length <= row) this.#rows.push({ width: 0, continued: false });
    this.#cursor = row;
    this.#column = column;
  }

  /** Wraps the rows again at `columns`, as a terminal that reflows does (wrapped rows join first). */
  private reflow(columns: number): void {
    if (columns === this.#columns) return;
    this.#columns = columns;
    const rows: Row[] = [];
    let cursor = 0;
    for (let i = 0; i < this.#rows.length; ) {
      let width = this.#rows[i].width;
      const start = i;
      for (i++; i < this.#rows.length && this.#rows[i].continued; i++) width += this.#rows[i].width;
      if (this.#cursor >= start && this.#cursor < i) cursor = rows.length + (this.#cursor - start);
      const count = Math.max(1, Math.ceil(width / columns));
      for (let k = 0; k < count; k++)
        rows.push({ width: Math.min(columns, width - k * columns), continued: k > 0 });
      if (this.#cursor >= start && this.#cursor < i) cursor = Math.min(cursor, rows.length - 1);
    }
    this.#rows = rows;
    this.#cursor = cursor;
    this.#column = Math.min(this.#column, columns);
  }
}
