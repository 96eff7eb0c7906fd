/**
 * ochat's own files never hang it nor fill its memory, end to end: the session's lock file, the
 * config cache, the one-shot's code cache, state.json and history.jsonl, each made a FIFO (opening
 * it for reading blocked forever) or a link to /dev/zero (reading it never ends), are read without
 * blocking, as regular files only; a bad state, history or lock file is set aside with a word.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type ChatRun, exitCode, placeForRuns, removePlaces, startChat } from '../support/e2e-chat.js';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';

type Kind = 'FIFO' | '/dev/zero' | 'folder';
const KINDS: Kind[] = ['FIFO', '/dev/zero'];

/** Puts a FIFO, or a link to /dev/zero, where `path` is. */
function replaceWith(kind: Kind, path: string): void {
  rmSync(path, { force: true });
  if (kind === 'FIFO') execFileSync('mkfifo', [path]);
  else if (kind === 'folder') mkdirSync(path);
  else symlinkSync('/dev/zero', path);
}

let emu: Emulator;
const dirs: string[] = [];
beforeAll(async () => {
  emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
});
afterAll(async () => {
  await emu.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A home for one-shot runs: config, data and cache under it. */
function home() {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-own-files-e2e-'));
  dirs.push(dir);
  const env = {
    OLLAMA_HOST: emu.url,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
  };
  mkdirSync(join(dir, 'config', 'ochat'), { recursive: true });
  writeFileSync(join(dir, 'config', 'ochat', 'config.yml'), 'model: llama3.2\n');
  return { env, dir, state: join(dir, 'data', 'ochat'), cache: join(dir, '.cache', 'ochat') };
}

const ask = (env: Record<string, string>) => runOchat(['-p', 'hi'], { env, timeoutMs: 15_000 });

describe.each(KINDS)('a one-shot whose own file is a %s', (kind) => {
  test('the config cache: answered, and the cache is made again', async () => {
    const { env, cache } = home();
    expect((await ask(env)).code).toBe(0);
    replaceWith(kind, join(cache, 'config.json'));
    const result = await ask(env);
    expect(result).toMatchObject({ code: 0, stdout: 'Echo: hi\n' });
  });

  test('the code cache: answered', async () => {
    const { env, cache } = home();
    expect((await ask(env)).code).toBe(0);
    const code = join(cache, 'code');
    const files = readdirSync(code);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) replaceWith(kind, join(code, file));
    const result = await ask(env);
    expect(result).toMatchObject({ code: 0, stdout: 'Echo: hi\n' });
  });

  test('state.json: answered, and it is set aside with a word', async () => {
    const { env, state } = home();
    mkdirSync(state, { recursive: true });
    replaceWith(kind, join(state, 'state.json'));
    const result = await ask(env);
    expect(result).toMatchObject({ code: 0, stdout: 'Echo: hi\n' });
    const what = kind === 'FIFO' ? 'a named pipe \\(FIFO\\)' : 'a device';
    expect(result.stderr).toMatch(
      new RegExp(`state file was ${what}, not a state file; it was set aside as`),
    );
    expect(readdirSync(state).filter((name) => name.startsWith('state.json.bad-'))).toHaveLength(1);
  });
});

const runs: ChatRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
  removePlaces();
});

describe.each(KINDS)('a chat whose own file is a %s', (kind) => {
  if (kind === '/dev/zero') lockTest('folder');
  test('history.jsonl: the chat starts and answers; the history is set aside with a word', async () => {
    const where = placeForRuns('ochat-own-history-e2e-');
    const data = join(where.home, 'data', 'ochat');
    mkdirSync(data, { recursive: true });
    replaceWith(kind, join(data, 'history.jsonl'));
    const run = await startChat({ pty: { home: where.home, cwd: where.cwd } });
    runs.push(run);
    run.pty.write('hello\r');
    await run.pty.waitFor('Echo: hello');
    await run.pty.waitFor(/input history[\s\S]*was\s+(a named pipe \(FIFO\)|a device),\s+not a\s+history/);
    expect(readdirSync(data).filter((name) => name.startsWith('history.jsonl.bad-'))).toHaveLength(1);
  });

  lockTest(kind);
});

/** The session's lock file made a `kind`: resumed writable (not "open in another ochat (pid 0)"). */
function lockTest(kind: Kind) {
  test(`the session's lock file as a ${kind}: the session resumes writable, the lock set aside with a word`, async () => {
    const where = placeForRuns('ochat-own-lock-e2e-');
    const first = await startChat({ pty: { home: where.home, cwd: where.cwd } });
    runs.push(first);
    first.pty.write('hello\r');
    await first.pty.waitFor('Echo: hello');
    first.pty.write('/quit\r');
    expect(await exitCode(first.pty)).toBe(0);
    const [session] = readdirSync(where.sessions).filter((f) => f.endsWith('.jsonl'));
    const lock = join(where.sessions, session.replace(/\.jsonl$/, '.lock'));
    replaceWith(kind, lock);

    const run = await startChat({
      args: ['--continue'],
      pty: { home: where.home, cwd: where.cwd },
      readyText: 'Resumed session',
    });
    runs.push(run);
    await run.pty.waitFor(/lock file was\s+(a named pipe|a device|a folder)/);
    expect(run.pty.screen()).not.toContain('Read-only');
    run.pty.write('again\r');
    await run.pty.waitFor('Echo: again');
    rmSync(lock, { recursive: true, force: true });
  });
}
