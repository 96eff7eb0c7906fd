import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type IPty, spawn } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { DIALOG_QUIET_MS } from '../../src/ui/input/dialog-key-gate.js';
import { waitUntil } from './wait-until.js';

const OCHAT_BIN = resolve(import.meta.dirname, '../../bin/ochat');

const QUIET_MS = 40;
const SETTLE_MAX_MS = 400;
/** How long late output may trail the exit event. */
const EXIT_GRACE_MS = 50;

const delay = (ms: number) => new Promise<false>((resolve) => setTimeout(() => resolve(false), ms));

/** A phrase as it may appear on screen: wrapped at any space. */
export const wrapped = (phrase: string) =>
  new RegExp(phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));

/** A run of the built ochat CLI in a pseudo-terminal, with a headless terminal reading its screen. */
export interface PtySession {
  /** Types into the terminal, as a user would (e.g. "hello\r"). */
  write(data: string): void;
  /**
   * Answers an open y/n question as a person does: after a rest, one key on its own. (A key
   * typed without a pause is typing: it goes to the prompt, see src/ui/input/dialog-key-gate.ts.)
   */
  answer(key: string): Promise<void>;
  /**
   * Types a large text (a paste) in pieces as a terminal hands it over, reading the program's
   * output in between: one huge write can leave both ends of the PTY waiting on each other.
   */
  writeInPieces(data: string, pieceChars?: number): Promise<void>;
  /** Resizes the terminal, as a user dragging its window: the program gets SIGWINCH, the screen re-wraps. */
  resize(cols: number, rows: number): void;
  /** The whole terminal text, scrollback included, one string per row joined by newlines. */
  screen(): string;
  /** Everything the program wrote, escape sequences included. */
  raw(): string;
  /**
   * Resolves once `pattern` is on screen and the output has settled (unless `settle: false`, for
   * timing measurements); rejects with the screen after `timeoutMs`.
   */
  waitFor(pattern: string | RegExp, timeoutMs?: number, options?: { settle?: boolean }): Promise<void>;
  /** Resolves with the exit code when the program ends. */
  readonly exited: Promise<number>;
  kill(): void;
  /** Process id of the ochat process (for CPU and memory readings in benchmarks). */
  readonly pid: number;
  /** The isolated XDG config/data home of this run (removed by `dispose` unless it was given). */
  readonly home: string;
  /** Ends the program, waits until it is gone, and removes its home. */
  dispose(): Promise<void>;
}

export interface PtyOptions {
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  cwd?: string;
  /** Reuse a home (XDG dirs) from an earlier session, to test remembered state. */
  home?: string;
  /** Flags for node itself, e.g. `--cpu-prof` when profiling a benchmark. */
  nodeArgs?: string[];
  /** Another program to run instead of ochat (benchmarks compare against reference programs). */
  script?: string;
  /**
   * The terminal answers the program's queries (e.g. DECRQM `CSI ? 2004 $ p`) as a real one does.
   * Off by default: a terminal that never answers, which the app must not wait for.
   */
  answerQueries?: boolean;
  /** What the terminal shows before ochat starts (the shell's history above it), cursor below it. */
  above?: string;
}

/**
 * Starts `bin/ochat args` in a PTY the way a user's terminal does: TERM=xterm-256color and no `CI`
 * variable at all — chalk turns colours off for any `CI` (even `CI=0`) and Ink stops live rendering
 * under `CI=true`, so the coloured path users run would go untested. Tests about NO_COLOR or
 * FORCE_COLOR=0 pass them in `env`.
 */
export function spawnOchat(args: string[], options: PtyOptions = {}): PtySession {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'ochat-e2e-'));
  const terminal = new xterm.Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
  if (options.above) terminal.write(options.above.replace(/\n/g, '\r\n'));
  let raw = '';
  const pty: IPty = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), options.script ?? OCHAT_BIN, ...args],
    {
      // node-pty sets TERM to `name`, over the env's: a test of TERM=dumb passes it in `env`.
      name: options.env?.TERM ?? 'xterm-256color',
      cols,
      rows,
      cwd: options.cwd ?? home,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        TERM: 'xterm-256color',
        XDG_CONFIG_HOME: join(home, 'config'),
        XDG_DATA_HOME: join(home, 'data'),
        ...options.env,
      },
    },
  );
  if (options.answerQueries) terminal.onData((reply) => pty.write(reply));
  // Output can still be on its way (node-pty may report the exit before the last data event, and
  // xterm parses writes asynchronously): resolve once what arrived is on the screen.
  const exited = new Promise<number>((resolveExit) =>
    pty.onExit(({ exitCode }) => {
      setTimeout(() => terminal.write('', () => resolveExit(exitCode)), EXIT_GRACE_MS);
    }),
  );
  /** Called each time output has reached the screen. */
  const screenChanged = new Set<() => void>();
  let lastOutputAt = Date.now();
  pty.onData((data) => {
    raw += data;
    lastOutputAt = Date.now();
    terminal.write(data, () => {
      for (const changed of screenChanged) changed();
    });
  });

  const screen = (): string => {
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n').replace(/\n+$/, '');
  };

  return {
    write: (data) => pty.write(data),
    async answer(key) {
      await delay(DIALOG_QUIET_MS + 50);
      pty.write(key);
    },
    async writeInPieces(data, pieceChars = 4096) {
      for (let start = 0; start < data.length; start += pieceChars) {
        pty.write(data.slice(start, start + pieceChars));
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    resize: (cols, rows) => {
      terminal.resize(cols, rows);
      pty.resize(cols, rows);
    },
    screen,
    raw: () => raw,
    async waitFor(pattern, timeoutMs = 10_000, { settle = true } = {}) {
      const matches = () =>
        typeof pattern === 'string' ? screen().includes(pattern) : pattern.test(screen());
      await waitUntil(String(pattern), matches, {
        timeoutMs,
        pollMs: 50,
        describe: () => `Screen:\n${screen()}`,
        onChange: (changed) => {
          screenChanged.add(changed);
          return () => screenChanged.delete(changed);
        },
      });
      // A frame can arrive in several chunks: let the rest of it land before the caller reads
      // the screen (quiet for QUIET_MS, at most SETTLE_MAX_MS).
      if (!settle) return;
      const settleBy = Date.now() + SETTLE_MAX_MS;
      while (Date.now() - lastOutputAt < QUIET_MS && Date.now() < settleBy) await delay(QUIET_MS / 2);
    },
    exited,
    kill: () => pty.kill(),
    pid: pty.pid,
    home,
    async dispose() {
      try {
        pty.kill();
      } catch {
        // already gone
      }
      terminal.dispose();
      // Wait until the process is gone: it may still be writing its state files into `home`.
      if (!(await Promise.race([exited.then(() => true), delay(3000)]))) {
        try {
          process.kill(pty.pid, 'SIGKILL');
        } catch {
          // exited meanwhile
        }
        await Promise.race([exited, delay(1000)]);
      }
      if (!options.home) rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}
