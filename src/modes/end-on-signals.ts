import { constants } from 'node:os';
import { exitWithoutTerminal } from '../platform/closed-output.js';
import { endRunningCommandsNow } from '../tools/run-shell.js';

/**
 * Killed (SIGTERM) or hung up (SIGHUP, a closed terminal): `giveBackTerminal` first, then the
 * `!command`s and run_commands still running are ended as /quit ends them (their process groups
 * are detached from the terminal, so nothing else would), then ochat exits as the signal would.
 */
export function endOnSignals(giveBackTerminal: () => void = () => {}): void {
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      giveBackTerminal();
      const code = 128 + constants.signals[signal];
      endRunningCommandsNow();
      // A hang-up usually means the terminal is gone.
      if (signal === 'SIGHUP') exitWithoutTerminal(code);
      process.exit(code);
    });
  }
}
