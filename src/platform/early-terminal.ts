import { writeSync } from 'node:fs';
import type * as Tty from 'node:tty';
import { nodeBuiltin } from './node-builtin.js';

// What the first frame needs of the terminal (are stdin and stdout terminals, stdout's width, raw
// mode, one write) without Node's stdio streams: creating process.stdin or process.stdout loads
// node:tty, which loads node:net and the streams, ~3 ms CPU of a 22 ms start on Node 20, before the
// frame. Node's tty_wrap binding, which node:tty itself wraps, gives all of it. process.binding()
// is deprecated in documentation only (DEP0111) and allows tty_wrap on Node 20-24; where it is
// missing, or would print a warning (--pending-deprecation wraps it), the streams are used.

interface TtyHandle {
  getWindowSize(size: number[]): number | undefined;
  setRawMode(raw: boolean): number | undefined;
  setBlocking(blocking: boolean): number | undefined;
  close(): void;
}

interface TtyWrap {
  isTTY(fd: number): boolean;
  TTY: new (fd: number, context: { code?: string }) => TtyHandle;
}

let binding: TtyWrap | null | undefined;

/** Node's tty_wrap binding, when it is there and reading it prints nothing. */
function ttyWrap(): TtyWrap | undefined {
  if (binding === undefined) {
    binding = null;
    try {
      const { binding: bind } = process as unknown as { binding?: (name: string) => unknown };
      if (typeof bind === 'function' && bind.name === 'binding') {
        const wrap = bind.call(process, 'tty_wrap') as Partial<TtyWrap>;
        if (typeof wrap.isTTY === 'function' && typeof wrap.TTY === 'function') binding = wrap as TtyWrap;
      }
    } catch {
      // A Node without it: the streams.
    }
  }
  return binding ?? undefined;
}

/** Whether `fd` is a terminal: node:tty's isatty (the same check), without loading node:tty. */
export function isatty(fd: number): boolean {
  const wrap = ttyWrap();
  if (!wrap) return nodeBuiltin<typeof Tty>('node:tty').isatty(fd);
  return Number.isInteger(fd) && fd >= 0 && fd <= 2147483647 && wrap.isTTY(fd);
}

/** stdin and stdout as the first frame uses them (the shape of process.stdin and process.stdout). */
export interface EarlyTerminal {
  stdout: { columns: number; write(data: string): void };
  stdin: { isTTY: true; setRawMode(raw: boolean): void };
  /**
   * Gives raw mode to process.stdin (created now) and closes the handles; writes go to
   * process.stdout from now on.
   */
  switchToStreams(): void;
}

/**
 * stdin and stdout before their streams exist, each write passed through `filter` (the guard
 * process.stdout will have); undefined unless both are terminals and the binding is there.
 */
export function openEarlyTerminal(filter: (text: string) => string): EarlyTerminal | undefined {
  const wrap = ttyWrap();
  if (!wrap || !isatty(0) || !isatty(1)) return undefined;
  const context: { code?: string } = {};
  const output = new wrap.TTY(1, context);
  const size: number[] = [];
  const sized = context.code === undefined && output.getWindowSize(size) === 0;
  // The handle put a non-blocking description of the terminal on fd 1, as process.stdout's would
  // (which makes it blocking again): writeSync must not meet EAGAIN.
  output.setBlocking(true);
  output.close();
  if (!sized) return undefined;
  const input = new wrap.TTY(0, context);
  if (context.code !== undefined) return undefined;
  let released = false;
  return {
    stdout: {
      columns: size[0],
      write(data) {
        if (released) {
          process.stdout.write(data);
          return;
        }
        const text = filter(data);
        try {
          writeSync(1, text);
        } catch {
          // The stream reports it (a closed terminal ends ochat quietly) or waits out a full one.
          process.stdout.write(data);
        }
      },
    },
    stdin: {
      isTTY: true,
      setRawMode(raw) {
        if (released) process.stdin.setRawMode(raw);
        else input.setRawMode(raw);
      },
    },
    switchToStreams() {
      if (released) return;
      released = true;
      // Created while still raw: creating it loads node:tty (a few ms), with echo off.
      const stdin = process.stdin;
      // Normal mode first, so that process.stdin records the terminal's own mode to restore; and
      // closed before process.stdin enters raw mode, since on Node 24 closing the handle that
      // first entered raw mode restores the mode it found. Keys typed meanwhile wait in the terminal.
      input.setRawMode(false);
      input.close();
      stdin.setRawMode(true);
    },
  };
}
