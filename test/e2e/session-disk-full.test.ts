/**
 * A full disk and a read-only disk under the built CLI: the data directory is a small tmpfs
 * (mounted for the test, so it needs root; skipped, and said so, where mounting is not allowed).
 * The chat goes on, the user is told once and in words, and once there is room again the lines
 * kept meanwhile are written whole: 0 messages lost, the next resume writable.
 */
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseSession } from '../../src/sessions/session-reader.js';
import { replaySession } from '../../src/sessions/session-replay.js';
import { compactionResponder } from '../support/compaction-summarizer.js';
import { type ChatRun, exitCode, startChat } from '../support/e2e-chat.js';
import type { ChatRequestRecord } from '../support/emulator.js';

const MODELS = [{ name: 'chat:latest', capabilities: ['completion', 'tools'] }];

/** Mounts a tmpfs of `size` at `dir`; false where this process may not mount. */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const probe = mkdtempSync(join(tmpdir(), 'ochat-mount-probe-'));
const canMount = mountTmpfs(probe, '64k');
if (canMount) execFileSync('umount', [probe]);
rmSync(probe, { recursive: true, force: true });
if (!canMount)
  process.stdout.write('session-disk-full: skipped, this process may not mount a tmpfs (needs root)\n');

const runs: ChatRun[] = [];
const mounts: string[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
  for (const mount of mounts.splice(0)) execFileSync('umount', ['-l', mount]);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A home whose data directory (sessions, state) is a fresh tmpfs of `size`. */
function smallDisk(size: string) {
  const root = mkdtempSync(join(tmpdir(), 'ochat-disk-e2e-'));
  dirs.push(root);
  const home = join(root, 'home');
  const data = join(home, 'data');
  const cwd = join(root, 'work');
  mkdirSync(data, { recursive: true });
  mkdirSync(cwd);
  expect(mountTmpfs(data, size)).toBe(true);
  mounts.push(data);
  return { home, cwd, data, sessions: join(data, 'ochat', 'sessions') };
}

/** Fills the file system of `dir` to its last byte; returns the filler, to free the space again. */
function fill(dir: string): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  const block = Buffer.alloc(4096, 0x2e);
  try {
    for (;;) writeSync(fd, block);
  } catch {
    for (;;) {
      try {
        writeSync(fd, block, 0, 1);
      } catch {
        break;
      }
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}

/** A reply longer than a page, so that a full disk cannot take it into a page's slack. */
const answer = (question: string) => `Answer to ${question}.\n\n${'lorem ipsum '.repeat(500).trim()}`;

function lastUserText(req: ChatRequestRecord): string {
  const messages = req.body.messages as { role: string; content: string }[];
  return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
}

async function start(where: ReturnType<typeof smallDisk>) {
  const run = await startChat({
    models: MODELS,
    args: ['-m', 'chat'],
    pty: { home: where.home, cwd: where.cwd },
  });
  run.emu.respondWith(compactionResponder({ chat: (req) => ({ content: answer(lastUserText(req)) }) }));
  runs.push(run);
  return run;
}

async function ask(run: ChatRun, question: string) {
  run.pty.write(`${question}\r`);
  await run.pty.waitFor(`Answer to ${question}.`);
}

const count = (text: string, phrase: string) => text.split(phrase).length - 1;

describe.skipIf(!canMount)('a full disk', () => {
  test('in a new session: said once, in words; the chat goes on; once there is room every line is written whole', async () => {
    const where = smallDisk('256k');
    const run = await start(where);
    await ask(run, 'Q1');
    const filler = fill(where.data);
    for (let n = 2; n <= 6; n++) await ask(run, `Q${n}`);
    await run.pty.waitFor('The session cannot be saved: the disk is full');
    expect(count(run.pty.screen(), 'The session cannot be saved')).toBe(1);
    rmSync(filler);
    await ask(run, 'Q7');
    await run.pty.waitFor(/The session is saved again \(\d+ lines kept meanwhile written\)/);
    run.pty.write('/quit\r');
    expect(await exitCode(run.pty)).toBe(0);

    const [file] = readdirSync(where.sessions).filter((f) => f.endsWith('.jsonl'));
    const parsed = parseSession(readFileSync(join(where.sessions, file)));
    expect(parsed.readOnly).toBeUndefined();
    expect(parsed.notices).toEqual([]);
    const { messages } = replaySession(parsed.header, parsed.entries);
    expect(messages.map((m) => m.content)).toEqual(
      [1, 2, 3, 4, 5, 6, 7].flatMap((n) => [`Q${n}`, answer(`Q${n}`)]),
    );
  });

  test('quitting while the disk is full: says how many lines are unsaved and keeps them in a named file elsewhere', async () => {
    const where = smallDisk('256k');
    const run = await start(where);
    await ask(run, 'Q1');
    const filler = fill(where.data);
    await ask(run, 'Q2');
    await ask(run, 'Q3');
    await run.pty.waitFor('The session cannot be saved: the disk is full');
    run.pty.write('/quit\r');
    expect(await exitCode(run.pty)).toBe(0);
    await run.pty.waitFor(/\d+ lines of this session could not be saved; they are kept in/);
    const kept = /kept in (\S+ochat-unsaved-\S+\.jsonl)/.exec(run.pty.screen().replace(/\n\s*/g, ''))?.[1];
    expect(kept).toBeDefined();
    dirs.push(kept!);
    // Put back as the message says, once there is room: nothing said is lost.
    rmSync(filler);
    const [file] = readdirSync(where.sessions).filter((f) => f.endsWith('.jsonl'));
    appendFileSync(join(where.sessions, file), readFileSync(kept!));
    const parsed = parseSession(readFileSync(join(where.sessions, file)));
    expect(parsed.readOnly).toBeUndefined();
    const { messages } = replaySession(parsed.header, parsed.entries);
    expect(messages.map((m) => m.content)).toEqual([1, 2, 3].flatMap((n) => [`Q${n}`, answer(`Q${n}`)]));
  });

  test('a disk full before the first message: the file is created once there is room, nothing said is lost', async () => {
    const where = smallDisk('256k');
    const run = await start(where);
    const filler = fill(where.data);
    await ask(run, 'Q1');
    await ask(run, 'Q2');
    await run.pty.waitFor('The session cannot be saved: the disk is full');
    // It names the folder it could not write in, not a session file that was never created.
    const named = /the disk is full \(([^)]*)\)/.exec(run.pty.screen().replace(/\s*\n\s*/g, ' '))?.[1];
    expect(named).toBe(where.sessions);
    rmSync(filler);
    await ask(run, 'Q3');
    await run.pty.waitFor('The session is saved again');
    run.pty.write('/quit\r');
    expect(await exitCode(run.pty)).toBe(0);
    const files = readdirSync(where.sessions).filter((f) => f.endsWith('.jsonl'));
    expect(files).toHaveLength(1);
    // The attempts that failed on the full disk left no empty lock behind.
    expect(readdirSync(where.sessions).filter((f) => f.endsWith('.lock'))).toEqual([]);
    const parsed = parseSession(readFileSync(join(where.sessions, files[0])));
    expect(parsed.readOnly).toBeUndefined();
    const { messages } = replaySession(parsed.header, parsed.entries);
    expect(messages.map((m) => m.content)).toEqual([1, 2, 3].flatMap((n) => [`Q${n}`, answer(`Q${n}`)]));
  });

  test('a read-only disk: the reason is named in words, not as an errno of mkdir', async () => {
    const where = smallDisk('64k');
    execFileSync('mount', ['-o', 'remount,ro', where.data]);
    const run = await start(where);
    await ask(run, 'Q1');
    await run.pty.waitFor('The session cannot be saved: the file system is read-only');
    expect(run.pty.screen()).not.toMatch(/ENOENT|EROFS|mkdir/);
    await ask(run, 'Q2');
    expect(count(run.pty.screen(), 'The session cannot be saved')).toBe(1);
  });

  test('--continue on a read-only disk: the session opens read-only, in memory, shown and sent; said in words', async () => {
    const where = smallDisk('256k');
    const first = await start(where);
    await ask(first, 'Q1');
    first.pty.write('/quit\r');
    expect(await exitCode(first.pty)).toBe(0);
    execFileSync('mount', ['-o', 'remount,ro', where.data]);

    const run = await startChat({
      models: MODELS,
      args: ['--continue'],
      pty: { home: where.home, cwd: where.cwd },
      readyText: 'Resumed session',
    });
    run.emu.respondWith(compactionResponder({ chat: (req) => ({ content: answer(lastUserText(req)) }) }));
    runs.push(run);
    await run.pty.waitFor(/Read-only: its folder cannot be written \(the file system is\s+read-only\)/);
    expect(run.pty.screen()).not.toMatch(/EROFS|ENOENT/);
    await ask(run, 'Q2');
    // The model gets the whole conversation, not only the new message.
    const sent = run.emu.chats.at(-1)!.body.messages as { role: string; content: string }[];
    expect(sent.map((m) => m.content)).toEqual(['Q1', answer('Q1'), 'Q2']);
  });
});
