import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import type { SessionLine } from './session-format.js';

/**
 * Appends lines to a session file, each one written whole with one `write(2)` as it happens, so a
 * crash loses at most the line being written. No fsync: the kernel has the data once `write`
 * returns, which survives the process being killed (not a power cut), and fsync per message would
 * cost milliseconds.
 */
export class SessionWriter {
  private fd: number | undefined;
  private failed = false;

  /**
   * Opens `path` for appending. `validBytes` (from the reader) cuts off a torn last line first, so
   * the next line is not glued to the fragment.
   */
  constructor(
    readonly path: string,
    options: { validBytes?: number; onError?: (error: Error) => void } = {},
  ) {
    this.onError = options.onError ?? (() => {});
    this.fd = openSync(path, 'a');
    if (options.validBytes !== undefined) ftruncateSync(this.fd, options.validBytes);
  }

  private readonly onError: (error: Error) => void;

  /** Appends one line. A failure (disk full) is reported once; the chat goes on unsaved. */
  append(line: SessionLine): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${JSON.stringify(line)}\n`);
    } catch (error) {
      if (!this.failed) this.onError(error instanceof Error ? error : new Error(String(error)));
      this.failed = true;
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
