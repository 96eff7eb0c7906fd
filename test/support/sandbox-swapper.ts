/**
 * A local process racing the sandbox: it swaps `race` and `swap` in a directory as fast as it can
 * (renameat2 with RENAME_EXCHANGE, through python's ctypes), `swap` being a symbolic link to a
 * folder outside, so `race/…` is now the inside directory, now the outside one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const SWAPPER = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
os.chdir(sys.argv[1])
AT_FDCWD, RENAME_EXCHANGE = -100, 2
sys.stdout.write("ready\\n"); sys.stdout.flush()
while True:
    if libc.renameat2(AT_FDCWD, b"race", AT_FDCWD, b"swap", RENAME_EXCHANGE) != 0:
        sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
`;

/** Whether this machine can run the swapper (Linux's renameat2). */
export const canSwap = process.platform === 'linux' && existsSync('/proc/self/fd');

/** Starts swapping `race` and `swap` in `dir`; resolves once it runs. Kill it when done. */
export async function startSwapper(dir: string): Promise<ChildProcess> {
  const swapper = spawn('python3', ['-c', SWAPPER, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    swapper.stdout?.once('data', () => resolve());
    swapper.once('exit', (code) => reject(new Error(`the swapper exited (${code})`)));
  });
  return swapper;
}
