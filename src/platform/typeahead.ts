import { closeSync, constants, openSync, readSync } from 'node:fs';

/**
 * What was typed before the terminal left line mode: keys pressed while the shell started ochat
 * (`ochat⏎hello⏎`). Line mode turned each Enter into a line feed (ICRNL) as it arrived, and a line
 * feed in raw mode is Ctrl+J, a new line in the editor; given back as carriage returns, each Enter
 * sends its line. To be called right after entering raw mode, when what waits was typed before it.
 * Read from a description of the terminal of its own, opened non-blocking (fd 0's mode is left as
 * it is); undefined when nothing waits or there is no /proc.
 */
export function takeTypeahead(): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return undefined;
  }
  const chunks: Buffer[] = [];
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(4096);
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read <= 0) break;
      chunks.push(chunk.subarray(0, read));
    }
  } catch {
    // EAGAIN: nothing more waits.
  } finally {
    closeSync(fd);
  }
  if (chunks.length === 0) return undefined;
  const typed = Buffer.concat(chunks);
  for (let i = 0; i < typed.length; i++) if (typed[i] === 0x0a) typed[i] = 0x0d;
  return typed;
}
