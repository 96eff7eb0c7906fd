/**
 * Damaged session files end to end: the built CLI resumes a session file that lost its final
 * newline, holds invalid UTF-8, or was left with a tool question open, and loses nothing but the
 * damaged line (the next resume is writable, every message is there, the file is not padded).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseSession } from '../../src/sessions/session-reader.js';
import { replaySession } from '../../src/sessions/session-replay.js';
import { compactionResponder, conversationChats } from '../support/compaction-summarizer.js';
import { type ChatRun, exitCode, placeForRuns, removePlaces, startChat } from '../support/e2e-chat.js';
import type { ChatRequestRecord } from '../support/emulator.js';
import { waitUntil } from '../support/wait-until.js';

const MODELS = [{ name: 'chat:latest', capabilities: ['completion', 'tools'] }];

const runs: ChatRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
  removePlaces();
});

const place = () => placeForRuns('ochat-damage-e2e-');

async function start(where: ReturnType<typeof place>, args: string[], readyText?: string) {
  const run = await startChat({ models: MODELS, args, pty: { home: where.home, cwd: where.cwd }, readyText });
  run.emu.respondWith(
    compactionResponder({ chat: (req) => ({ content: `Answer to ${lastUserText(req)}.` }) }),
  );
  runs.push(run);
  return run;
}

function lastUserText(req: ChatRequestRecord): string {
  const messages = req.body.messages as { role: string; content: string }[];
  return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
}

async function quit(run: ChatRun) {
  run.pty.write('/quit\r');
  expect(await exitCode(run.pty)).toBe(0);
}

function onlySession(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return join(dir, files[0]);
}

/** The session file's messages as `role: content`, and whether it would open writable. */
function saved(file: string) {
  const parsed = parseSession(readFileSync(file, 'utf8'));
  const { messages } = replaySession(parsed.header, parsed.entries);
  return { readOnly: parsed.readOnly, messages: messages.map((m) => `${m.role}: ${m.content}`) };
}

/** Resumes, sends one more question, quits; returns the run (closed). */
async function resumeAndAsk(where: ReturnType<typeof place>, question: string) {
  const run = await start(where, ['--continue'], 'Resumed session');
  await run.pty.waitFor('num_ctx');
  expect(run.pty.screen()).not.toContain('Read-only');
  run.pty.write(`${question}\r`);
  await run.pty.waitFor(`Answer to ${question}.`);
  await quit(run);
  return run;
}

describe('a damaged session file resumes with nothing lost beyond the damage', () => {
  test('a file without its final newline: the next line is not glued on; the resume after stays writable', async () => {
    const where = place();
    const first = await start(where, ['-m', 'chat']);
    first.pty.write('Question A\r');
    await first.pty.waitFor('Answer to Question A');
    await quit(first);
    const file = onlySession(where.sessions);
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    writeFileSync(file, text.slice(0, -1));

    await resumeAndAsk(where, 'Question B');
    const second = await start(where, ['--continue'], 'Resumed session');
    await second.pty.waitFor('num_ctx');
    expect(second.pty.screen()).not.toContain('Read-only');
    expect(second.pty.screen()).not.toContain('corrupt');
    await quit(second);
    const after = saved(file);
    expect(after.readOnly).toBeUndefined();
    expect(after.messages).toEqual([
      'user: Question A',
      'assistant: Answer to Question A.',
      'user: Question B',
      'assistant: Answer to Question B.',
    ]);
  });

  test('invalid UTF-8 in a line: the file is not padded with NULs and the next resume is writable', async () => {
    const where = place();
    const first = await start(where, ['-m', 'chat']);
    first.pty.write('Question AxxB\r');
    await first.pty.waitFor('Answer to Question AxxB.');
    await quit(first);
    const file = onlySession(where.sessions);
    const bytes = readFileSync(file);
    const at = bytes.indexOf('AxxB');
    // Two bytes that are not UTF-8 where "xx" was.
    bytes[at + 1] = 0xff;
    bytes[at + 2] = 0xfe;
    writeFileSync(file, bytes);

    const resumed = await start(where, ['--continue'], 'Resumed session');
    await resumed.pty.waitFor('num_ctx');
    await quit(resumed);
    // Opening and closing a session writes nothing to it.
    expect(readFileSync(file).equals(bytes)).toBe(true);

    await resumeAndAsk(where, 'Question C');
    const grown = readFileSync(file);
    expect(grown.includes(0)).toBe(false);
    expect(grown.subarray(0, bytes.length).equals(bytes)).toBe(true);
    const after = saved(file);
    expect(after.readOnly).toBeUndefined();
    expect(after.messages).toEqual([
      'user: Question A\uFFFD\uFFFDB',
      'assistant: Answer to Question AxxB.',
      'user: Question C',
      'assistant: Answer to Question C.',
    ]);
  });
});

describe('a kill while a tool question is open', () => {
  test('the resumed chat answers the call that never ran with a result saying so, shown in the transcript', async () => {
    const where = place();
    const first = await startChat({
      models: MODELS,
      args: ['-m', 'chat'],
      pty: { home: where.home, cwd: where.cwd },
    });
    runs.push(first);
    first.emu.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] });
    first.pty.write('Run echo\r');
    await first.pty.waitFor('? Allow run_command echo hi?');
    process.kill(first.pty.pid, 'SIGKILL');
    await first.pty.exited;

    const second = await start(where, ['--continue'], 'Resumed session');
    await second.pty.waitFor('num_ctx');
    await second.pty.waitFor('run_command echo hi — not run: the session was closed');
    second.pty.write('Go on\r');
    await second.pty.waitFor('Answer to Go on.');
    const sent = conversationChats(second.emu)[0].body.messages as { role: string; content: string }[];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(sent[2].content).toMatch(/not run.*session was closed/);
    await quit(second);
    // The result is in the file too: a later resume sends it without adding another.
    const after = saved(onlySession(where.sessions));
    expect(after.readOnly).toBeUndefined();
    expect(after.messages.filter((m) => m.startsWith('tool:'))).toHaveLength(1);
  });

  test('a call approved and killed while it ran is interrupted, its outcome unknown — not "not run"', async () => {
    const where = place();
    const first = await startChat({
      models: MODELS,
      args: ['-m', 'chat'],
      pty: { home: where.home, cwd: where.cwd },
    });
    runs.push(first);
    first.emu.enqueue({
      toolCalls: [{ name: 'run_command', arguments: { command: 'touch ran.txt; sleep 30' } }],
    });
    first.pty.write('Run it\r');
    await first.pty.waitFor('? Allow run_command');
    await first.pty.answer('y');
    // Its side effect is on disk when the kill comes.
    await waitUntil('the command ran', () => existsSync(join(where.cwd, 'ran.txt')), {
      describe: () => first.pty.screen(),
    });
    process.kill(first.pty.pid, 'SIGKILL');
    await first.pty.exited;

    const second = await start(where, ['--continue'], 'Resumed session');
    await second.pty.waitFor('num_ctx');
    await second.pty.waitFor(/sleep 30 — interrupted: its outcome is\s+unknown \(it may have run\)/);
    expect(second.pty.screen()).not.toContain('not run');
    second.pty.write('Go on\r');
    await second.pty.waitFor('Answer to Go on.');
    const sent = conversationChats(second.emu)[0].body.messages as { role: string; content: string }[];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(sent[2].content).toMatch(/interrupted.*outcome is unknown \(it may have run/);
    expect(sent[2].content).not.toMatch(/not run/);
    await quit(second);
  });
});
