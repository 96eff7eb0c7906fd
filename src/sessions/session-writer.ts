import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { fileErrorReason, ShortWriteError } from '../platform/errno.js';
import type { SessionLine } from './session-format.js';

/** The file system calls the writer makes: the seam where a test makes the disk full. */
export interface WriterFileSystem {
  writeSync(fd: number, data: Buffer, offset: number, length: number, position: number): number;
  ftruncateSync(fd: number, length: number): void;
}

const NODE_FS: WriterFileSystem = { writeSync, ftruncateSync };

/** The session file could not be written: why, in words (`the disk is full`), and where. */
export class SessionSaveError extends Error {
  override readonly name = 'SessionSaveError';
  constructor(
    readonly reason: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(`${reason} (${path})`, options);
  }
}

/** Told when writing starts failing (once per failure) and when it works again. */
export interface WriterListener {
  onError?: (error: SessionSaveError) => void;
  /** The lines kept while writing failed were written, whole: how many. */
  onRecovered?: (lines: number) => void;
}

/** Options of {@link SessionWriter}. */
export interface SessionWriterOptions extends WriterListener {
  /**
   * For an existing file: the bytes of its lines to keep (from the reader). What follows (a torn
   * last line) is overwritten by the next line; a kept last line without its newline gets one.
   */
  validBytes?: number;
  fs?: WriterFileSystem;
}

/**
 * Appends lines to a session file, each one written whole at the offset where the file's whole
 * lines end, so a crash or a full disk never leaves a line glued to a fragment. A write that
 * fails or comes up short (ENOSPC, a read-only disk) is cut back off, reported once, and its
 * lines are kept in memory and written, whole, with the next line that can be. Opening changes
 * nothing in the file: every change waits for the first line appended. No fsync: the kernel has
 * the data once `write` returns, which survives the process being killed (not a power cut).
 */
export class SessionWriter {
  private fd: number | undefined;
  /** Where the whole lines end: the next line is written here. */
  private end: number;
  /** The file is longer than `end` (a torn line): cut after the next write. */
  private tail: boolean;
  /** The last kept line lacks its newline. */
  private needsNewline: boolean;
  /** Lines not written yet because writing failed. */
  private unsaved: Buffer[] = [];
  private failing = false;
  private readonly fs: WriterFileSystem;
  private listener: WriterListener;

  /** Creates `path` (it must not exist) or, with `validBytes`, opens an existing session file. */
  constructor(
    readonly path: string,
    options: SessionWriterOptions = {},
  ) {
    this.fs = options.fs ?? NODE_FS;
    this.listener = options;
    if (options.validBytes === undefined) {
      this.fd = openSync(path, 'wx', 0o600);
      this.end = 0;
      this.tail = false;
      this.needsNewline = false;
      return;
    }
    this.fd = openSync(path, 'r+');
    this.end = options.validBytes;
    this.tail = fstatSync(this.fd).size > this.end;
    this.needsNewline = this.end > 0 && this.byteAt(this.end - 1) !== 0x0a;
  }

  private byteAt(position: number): number | undefined {
    if (this.fd === undefined) return undefined;
    const byte = Buffer.alloc(1);
    return readSync(this.fd, byte, 0, 1, position) === 1 ? byte[0] : undefined;
  }

  /** Who is told when writing fails and works again, from now on. */
  listen(listener: WriterListener): void {
    this.listener = listener;
  }

  /** The lines appended but not yet written (writing failed), as they would be in the file. */
  unsavedText(): string {
    return Buffer.concat(this.unsaved).toString('utf8');
  }

  /** Lines appended but not yet written (writing failed). */
  get unsavedLines(): number {
    return this.unsaved.length;
  }

  /** Appends one line, with every line kept from a failed write before it. */
  append(line: SessionLine): void {
    if (this.fd === undefined) return;
    this.unsaved.push(Buffer.from(`${JSON.stringify(line)}\n`));
    this.flush();
  }

  /** Writes the kept lines, whole; on failure cuts the file back to its whole lines and keeps them. */
  private flush(): void {
    const fd = this.fd;
    if (fd === undefined || this.unsaved.length === 0) return;
    const lines = this.unsaved.length;
    const data = Buffer.concat(this.needsNewline ? [Buffer.from('\n'), ...this.unsaved] : this.unsaved);
    try {
      let done = 0;
      while (done < data.length) {
        const written = this.fs.writeSync(fd, data, done, data.length - done, this.end + done);
        if (written <= 0) throw new ShortWriteError(done, data.length);
        done += written;
      }
      if (this.tail) this.fs.ftruncateSync(fd, this.end + data.length);
    } catch (error) {
      // Cut off what part of it was written: the next attempt writes it whole at the same place.
      try {
        this.fs.ftruncateSync(fd, this.end);
        this.tail = false;
      } catch {
        this.tail = true;
      }
      if (!this.failing) {
        this.failing = true;
        this.listener.onError?.(new SessionSaveError(fileErrorReason(error), this.path, { cause: error }));
      }
      return;
    }
    this.end += data.length;
    this.tail = false;
    this.needsNewline = false;
    this.unsaved = [];
    if (this.failing) {
      this.failing = false;
      this.listener.onRecovered?.(lines);
    }
  }

  /** Tries once more to write what is kept, then closes the file. */
  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
  }
}
