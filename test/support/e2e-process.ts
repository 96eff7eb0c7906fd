/**
 * Runs the built ochat CLI as a plain child process (no terminal): stdout and stderr apart, stdin
 * piped, XDG dirs isolated. For one-shot mode and the errors that end a run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const OCHAT_BIN = resolve(import.meta.dirname, '../../bin/ochat');

/** What one run produced. */
export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runOchat}. */
export interface RunOptions {
  /** Extra environment (e.g. OLLAMA_HOST). */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed; stdin is an empty pipe without it. */
  input?: string;
  /** A file to be stdin instead (e.g. `/dev/zero`, which never ends). */
  stdinFrom?: string;
  /** Working directory; default a fresh temporary home. */
  cwd?: string;
  /** Kill the run after this long (a hang is a failure, not a stuck suite). */
  timeoutMs?: number;
}

/** Runs `bin/ochat args` to its end with an isolated home. */
export async function runOchat(args: string[], options: RunOptions = {}): Promise<ProcessResult> {
  const home = mkdtempSync(join(tmpdir(), 'ochat-e2e-'));
  try {
    return await new Promise<ProcessResult>((resolveRun, reject) => {
      const child = spawn(process.execPath, [OCHAT_BIN, ...args], {
        cwd: options.cwd ?? home,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          XDG_CONFIG_HOME: join(home, 'config'),
          XDG_DATA_HOME: join(home, 'data'),
          ...options.env,
        },
        stdio: [options.stdinFrom ? openSync(options.stdinFrom, 'r') : 'pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`ochat ${args.join(' ')} did not finish.\nstdout: ${stdout}\nstderr: ${stderr}`));
      }, options.timeoutMs ?? 10_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolveRun({ code, stdout, stderr });
      });
      child.stdin?.end(options.input ?? '');
    });
  } finally {
    rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
