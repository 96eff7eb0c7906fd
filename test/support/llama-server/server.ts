/**
 * Starts the real llama.cpp server (built by ./build.ts) with the tiny model on a free loopback
 * port, waits until `/health` answers 200 (it answers 503 while the model loads), and stops it.
 * Test files get the built files from ./global-setup.ts (`llamaServerSetup()`); the bench from
 * ./prepare.ts directly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { readGgufKeys } from './gguf.js';
import type { LlamaServerFiles } from './prepare.js';

/** A running server. */
export interface LlamaServer {
  url: string;
  port: number;
  /** Everything the server printed (it logs to stderr), for a failing test's message. */
  log(): string;
  /** Stops it (idempotent). */
  stop(): Promise<void>;
}

/** How to start it; the defaults are the brief's: a 2048-token window, one slot, 48 tokens a reply. */
export interface LlamaServerOptions {
  ctx?: number;
  slots?: number;
  predict?: number;
  threads?: number;
  /** Any further flags. */
  args?: string[];
  /** How long to wait for `/health` (default 60 s: a loaded machine starts it slowly). */
  readyTimeoutMs?: number;
}

const TOKEN_TYPE_BYTE = 6;

/** The model's name at the server (`/v1/models` id). */
export const MODEL_ALIAS = 'ochat-tiny';

/** The ids of the model's byte tokens (`<0xNN>`, token type 6). */
function byteTokens(model: string): number[] {
  const types = readGgufKeys(readFileSync(model)).get('tokenizer.ggml.token_type')?.value;
  if (!Array.isArray(types)) return [];
  return types.flatMap((type, id) => (type === TOKEN_TYPE_BYTE ? [id] : []));
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Starts llama-server with `files`' binary and model; resolves once it serves. */
export async function startLlamaServer(
  files: LlamaServerFiles,
  options: LlamaServerOptions = {},
): Promise<LlamaServer> {
  const { ctx = 2048, slots = 1, predict = 48, threads = 1, args = [], readyTimeoutMs = 60_000 } = options;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    files.binary,
    [
      ...['-m', files.model, '-c', String(ctx), '-np', String(slots), '-n', String(predict)],
      ...['-t', String(threads), '--chat-template', 'chatml', '--host', '127.0.0.1', '--port', String(port)],
      // Without an alias the server names its model by the file's whole path.
      ...['--alias', MODEL_ALIAS],
      // Random weights sample single bytes too, and a stray byte of a UTF-8 sequence fails the chat
      // parser (an SSE error event after a 200): a real model writes whole characters, so byte tokens
      // are never sampled. A fixed sampling seed: the same words every run.
      ...byteTokens(files.model).flatMap((id) => ['--logit-bias', `${id}-inf`]),
      ...['--seed', '1'],
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let spawnError: Error | undefined;
  child.on('error', (error) => {
    spawnError = error;
  });
  const server: LlamaServer = { url, port, log: () => output, stop: () => stopChild(child) };

  const deadline = Date.now() + readyTimeoutMs;
  while (!(await healthy(url))) {
    const ended = spawnError ?? (child.exitCode !== null || child.signalCode !== null);
    if (ended || Date.now() > deadline) {
      await server.stop();
      const why = spawnError
        ? String(spawnError)
        : ended
          ? 'it exited'
          : `no /health 200 in ${readyTimeoutMs} ms`;
      throw new Error(`llama-server did not start (${why}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server;
}
