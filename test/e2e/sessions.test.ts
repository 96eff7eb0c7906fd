/**
 * Sessions end to end: the built CLI in a PTY saves the conversation as it happens, and a resumed
 * session sends exactly the request the original would have sent (system, summary, tool log,
 * tail, options, num_ctx), also across a compaction and after /uncompact.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  compactionResponder,
  conversationChats,
  isSummarizerRequest,
} from '../support/compaction-summarizer.js';
import { type ChatRun, exitCode, placeForRuns, removePlaces, startChat } from '../support/e2e-chat.js';
import {
  type ChatRequestRecord,
  countPromptTokens,
  countTokens,
  countToolTokens,
} from '../support/emulator.js';
import { spawnOchat, wrapped } from '../support/pty-session.js';
import { deliberatePause, waitUntil } from '../support/wait-until.js';

const MODELS = [{ name: 'chat:latest', capabilities: ['completion', 'tools'] }];
const chatReplies = (_req: unknown, n: number) => ({
  content: `${'lorem ipsum '.repeat(40).trim()}\n\nReply ${n} done.`,
});

const runs: ChatRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
  removePlaces();
});

/** A home and a working directory kept across runs, with a notes file to attach. */
function place() {
  const made = placeForRuns('ochat-sessions-e2e-');
  writeFileSync(join(made.cwd, 'notes.txt'), 'FACT-notes the notes say hello\n');
  return made;
}

/** Chat replies; the call numbers in `toolCallsAt` ask for read_file notes.txt instead. */
async function start(
  where: ReturnType<typeof place>,
  args: string[],
  readyText?: string | RegExp,
  toolCallsAt: number[] = [],
) {
  const run = await startChat({ models: MODELS, args, pty: { home: where.home, cwd: where.cwd }, readyText });
  run.emu.respondWith(
    compactionResponder({
      chat: (req, n) =>
        toolCallsAt.includes(n)
          ? { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }
          : chatReplies(req, n),
    }),
  );
  runs.push(run);
  return run;
}

function sessionFiles(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
}

/** The request body exactly as sent (the emulator keeps the client's key order). */
const bytes = (chat: ChatRequestRecord) => JSON.stringify(chat.body);

async function quit(run: ChatRun) {
  run.pty.write('/quit\r');
  expect(await exitCode(run.pty)).toBe(0);
}

/**
 * Builds up a conversation in a first run (`build`), copies the session file, sends a probe and
 * quits; then puts the copy back, resumes it in a second run and sends the same probe. Returns
 * both probe requests.
 */
async function probeBeforeAndAfterResume(build: (run: ChatRun) => Promise<void>, toolCallsAt: number[] = []) {
  const where = place();
  const first = await start(where, ['-m', 'chat', '--num-ctx', '4096'], undefined, toolCallsAt);
  await build(first);
  const [file] = sessionFiles(where.sessions);
  const saved = join(where.home, 'saved.jsonl');
  copyFileSync(join(where.sessions, file), saved);
  const before = conversationChats(first.emu).length;
  first.pty.write('Probe FACT-probe?\r');
  await waitForConversationChats(first, before + 1);
  const original = conversationChats(first.emu)[before];
  await first.pty.waitFor(`Reply ${before + 1} done.`);
  await quit(first);

  copyFileSync(saved, join(where.sessions, file));
  const second = await start(where, ['--continue'], 'Resumed session');
  await second.pty.waitFor('num_ctx');
  second.pty.write('Probe FACT-probe?\r');
  await waitForConversationChats(second, 1);
  const resumed = conversationChats(second.emu)[0];
  return { original, resumed, second, where };
}

async function waitForConversationChats(run: ChatRun, count: number) {
  await waitUntil(`${count} conversation requests`, () => conversationChats(run.emu).length >= count);
}

async function chatTurns(run: ChatRun, from: number, to: number) {
  for (let n = from; n <= to; n++) {
    run.pty.write(`Question ${n}, FACT-q${n}?\r`);
    await run.pty.waitFor(`Reply ${n} done.`);
  }
}

describe('sessions', () => {
  test("on quit ochat says how to come back; -r alone offers this directory's sessions; --continue takes the newest", async () => {
    const where = place();
    const first = await start(where, ['-m', 'chat']);
    first.pty.write('First session FACT-one\r');
    await first.pty.waitFor('Reply 1 done.');
    // Typed in full, /quit shows its completion entry; the last frame must not keep it.
    first.pty.write('/quit');
    await first.pty.waitFor('Quit ochat');
    first.pty.write('\r');
    expect(await exitCode(first.pty)).toBe(0);
    const [file] = sessionFiles(where.sessions);
    const id = file.replace(/\.jsonl$/, '');
    expect(first.pty.screen()).toContain(`To continue this session: ochat -r ${id}`);
    expect(first.pty.screen()).not.toContain('Quit ochat');

    // One session: offered too (Esc would start a new one), not resumed unasked.
    const single = await start(where, ['-r'], 'Continue which session?');
    await single.pty.waitFor(/› First session FACT-one/);
    single.pty.write('\r');
    await single.pty.waitFor(`Resumed session ${id}`);
    await quit(single);

    const second = await start(where, ['-m', 'chat']);
    second.pty.write('Second session FACT-two\r');
    await second.pty.waitFor('Reply 1 done.');
    await quit(second);

    // -r alone: a choice, newest first, with first message and age; ↓ Enter picks the older.
    const picking = await start(where, ['-r'], 'Continue which session?');
    await picking.pty.waitFor(/› Second session FACT-two\s+just now · 2 messages/);
    expect(picking.pty.screen()).toMatch(/ {2}First session FACT-one\s+just now · 2 messages/);
    picking.pty.write('\x1b[B');
    await picking.pty.waitFor('› First session FACT-one');
    picking.pty.write('\r');
    await picking.pty.waitFor(`Resumed session ${id}`);
    expect(picking.pty.screen()).toContain('› First session FACT-one');
    await quit(picking);

    // --continue takes the newest (by its file's last write) without asking.
    const continuing = await start(where, ['--continue'], 'Resumed session');
    expect(continuing.pty.screen()).toMatch(/Resumed session \S+: 2 messages/);
    expect(continuing.pty.screen()).not.toContain('Continue which session?');
  });

  test('a resumed session shows its replies rendered exactly as they were live (fences, tables, lists)', async () => {
    const where = place();
    const markdown = [
      'Here is code:',
      '',
      '```python',
      'def answer():',
      '    return 42',
      '```',
      '',
      '| name | size |',
      '|---|---|',
      '| alpha | 10 |',
      '',
      '- item `X`',
      '- **bold** item',
      '',
      'END-MD',
    ].join('\n');
    /** The rows of the reply to `show markdown`, from the row after the question to END-MD. */
    const replyRows = (screen: string) => {
      const rows = screen.split('\n');
      const from = rows.findIndex((row) => row.startsWith('› show markdown'));
      const to = rows.findIndex((row, i) => i > from && row.includes('END-MD'));
      expect(from).toBeGreaterThan(-1);
      expect(to).toBeGreaterThan(from);
      return rows.slice(from + 1, to + 1);
    };
    const first = await start(where, ['-m', 'chat']);
    first.emu.respondWith(() => ({ content: markdown }));
    first.pty.write('show markdown\r');
    await first.pty.waitFor('END-MD');
    const live = replyRows(first.pty.screen());
    expect(live.join('\n')).not.toContain('```');
    await quit(first);

    const second = await start(where, ['--continue'], 'Resumed session');
    await second.pty.waitFor('END-MD');
    const resumed = replyRows(second.pty.screen());
    expect(resumed.join('\n')).not.toMatch(/```|\|---|`X`|\*\*bold\*\*/);
    expect(resumed).toEqual(live);
  });

  test('a resumed session sends the byte-identical request: system, options, /tools, tool results, tail, num_ctx', async () => {
    const { original, resumed, second } = await probeBeforeAndAfterResume(
      async (run) => {
        run.pty.write('/system Answer in FACT-style.\r');
        await run.pty.waitFor('System prompt set.');
        run.pty.write('/set temperature 0.3\r');
        await run.pty.waitFor('temperature');
        run.pty.write('/tools off run_command\r');
        await run.pty.waitFor('run_command disabled.');
        run.pty.write('Question 1, FACT-q1?\r');
        await run.pty.waitFor('Reply 2 done.');
        await chatTurns(run, 3, 3);
      },
      [1],
    );
    expect(original.body.messages[0]).toEqual({ role: 'system', content: 'Answer in FACT-style.' });
    expect(original.body.messages.some((m: { role: string }) => m.role === 'tool')).toBe(true);
    expect(original.body.options).toEqual({ temperature: 0.3, num_ctx: 4096 });
    const toolNames = (chat: ChatRequestRecord) =>
      (chat.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(toolNames(original)).toContain('read_file');
    expect(toolNames(original)).not.toContain('run_command');
    expect(bytes(resumed)).toBe(bytes(original));
    // The screen shows the conversation it continues.
    expect(second.pty.screen()).toContain('Question 1, FACT-q1?');
    expect(second.pty.screen()).toContain('⚙ read_file notes.txt');
  });

  test('across a compaction, and after /uncompact, the resumed request is byte-identical too', async () => {
    const compacted = await probeBeforeAndAfterResume(async (run) => {
      await chatTurns(run, 1, 4);
      run.pty.write('/compact\r');
      await run.pty.waitFor(/Compacted \d+ messages/);
    });
    expect(compacted.original.body.messages[0].content).toContain('FACT-q1');
    expect(bytes(compacted.resumed)).toBe(bytes(compacted.original));
    expect(compacted.second.pty.screen()).toMatch(/Compacted \d+ messages/);

    const uncompacted = await probeBeforeAndAfterResume(async (run) => {
      await chatTurns(run, 1, 4);
      run.pty.write('/compact\r');
      await run.pty.waitFor(/Compacted \d+ messages/);
      run.pty.write('/uncompact\r');
      await run.pty.waitFor('Uncompacted: the view from before the last compaction is back');
    });
    // The whole transcript is sent again, no summary.
    expect(uncompacted.original.body.messages[0]).toEqual({ role: 'user', content: 'Question 1, FACT-q1?' });
    expect(bytes(uncompacted.resumed)).toBe(bytes(uncompacted.original));
  });

  test('--list-sessions and /sessions list the session; /new starts another; -r <name> finds it by name', async () => {
    const where = place();
    const run = await start(where, ['-m', 'chat']);
    await chatTurns(run, 1, 1);
    run.pty.write('/rename planning\r');
    await run.pty.waitFor('Session named "planning"');
    run.pty.write('/new\r');
    await run.pty.waitFor('New conversation.');
    await chatTurns(run, 2, 2);
    run.pty.write('/sessions\r');
    await run.pty.waitFor(/\* \S+ +chat +2 /);
    expect(run.pty.screen()).toMatch(/planning +chat +2 .*Question 1, FACT-q1\?/);
    await quit(run);
    expect(sessionFiles(where.sessions)).toHaveLength(2);
    const list = spawnOchat(['--list-sessions'], { home: where.home, cwd: where.cwd });
    await list.waitFor(/planning +chat +2 .*Question 1, FACT-q1\?/);
    expect(await exitCode(list)).toBe(0);
    await list.dispose();

    const second = await start(where, ['-r', 'planning'], 'Resumed session');
    expect(second.pty.screen()).toContain('"planning": 2 messages.');
    expect(second.pty.screen()).toContain('Question 1, FACT-q1?');
    expect(second.pty.screen()).not.toContain('Question 2');
  });
});

describe('session commands in the terminal', () => {
  test('/history shows what compaction summarized and every attempt; /save exports; /load imports and continues; /delete asks first', async () => {
    const where = place();
    const run = await start(where, ['-m', 'chat', '--num-ctx', '4096']);
    await chatTurns(run, 1, 4);
    run.pty.write('/compact\r');
    await run.pty.waitFor(/Compacted \d+ messages/);
    run.pty.write('/history\r');
    await run.pty.waitFor('── compacted just now');
    expect(run.pty.screen()).toContain('[1] (summarized) user: Question 1, FACT-q1?');
    expect(run.pty.screen()).toMatch(/\[8\] assistant: lorem ipsum/);

    run.pty.write('/save chat.md\r');
    await run.pty.waitFor('Saved to');
    const markdown = readFileSync(join(where.cwd, 'chat.md'), 'utf8');
    expect(markdown).toContain('## User\n\nQuestion 4, FACT-q4?');
    expect(markdown).toContain('> **Compaction**');
    run.pty.write('/save chat.md\r');
    await run.pty.waitFor('Not saved: chat.md exists; choose another name.');
    // A system call's failure in words, with the path: not `ENOENT: no such file or directory, open …`.
    run.pty.write('/save missing/chat.md\r');
    await run.pty.waitFor(
      wrapped(`Not saved: no such file or folder (${join(where.cwd, 'missing', 'chat.md')})`),
    );
    run.pty.write('/save chat.md/x.md\r');
    await run.pty.waitFor(
      wrapped(`Not saved: a part of its path is not a folder (${join(where.cwd, 'chat.md', 'x.md')})`),
    );
    expect(run.pty.screen()).not.toMatch(/ENOENT|ENOTDIR/);
    run.pty.write('/save chat.json\r');
    await run.pty.waitFor(/Saved to .*chat\.json/);
    const [original] = sessionFiles(where.sessions);

    run.pty.write('/load chat.json\r');
    await run.pty.waitFor(/Resumed session \S+: 8 messages\./);
    expect(sessionFiles(where.sessions)).toHaveLength(2);
    run.pty.write('Question 5, FACT-q5?\r');
    await run.pty.waitFor('Reply 5 done.');
    // The imported session continues from the summary in force, as the original would.
    const sent = conversationChats(run.emu).at(-1)!.body.messages;
    expect(sent[0].role).toBe('system');
    expect(sent[0].content).toContain('FACT-q1');

    const originalId = original.replace('.jsonl', '');
    run.pty.write(`/delete ${originalId}\r`);
    await run.pty.waitFor(`Delete session ${originalId} (8 messages, "Question 1, FACT-q1?")? (y/n)`);
    await run.pty.answer('n');
    await run.pty.waitFor('Kept.');
    expect(sessionFiles(where.sessions)).toHaveLength(2);
    run.pty.write(`/delete ${originalId}\r`);
    await run.pty.waitFor(`Delete session ${originalId} (8 messages`);
    await run.pty.answer('y');
    await run.pty.waitFor(`Deleted session ${originalId}.`);
    expect(sessionFiles(where.sessions)).toEqual([expect.not.stringContaining(originalId)]);
  });

  test('/history shows /compact instructions and cancelled compactions; a compaction run before a message was sent is shown above it', async () => {
    const where = place();
    const run = await start(where, ['-m', 'chat', '--num-ctx', '4096']);
    const answers = compactionResponder({ chat: chatReplies });
    let slow = false;
    run.emu.respondWith(async (req) => {
      // A summarizer that takes its time, as a real model does: Ctrl+C comes while it works.
      if (slow && isSummarizerRequest(req))
        await deliberatePause(5000, 'the summarizer takes its time, as a real model does');
      return answers(req);
    });
    await chatTurns(run, 1, 3);
    run.pty.write('/compact keep FACT-q2 exactly\r');
    await run.pty.waitFor(/Compacted \d+ messages/);
    await chatTurns(run, 4, 5);
    slow = true;
    run.pty.write('/compact\r');
    await run.pty.waitFor('compacting');
    run.pty.write('\x03');
    await run.pty.waitFor('Compaction cancelled');
    slow = false;
    // Too big to go without compacting what came before it first.
    run.pty.write(`Big FACT-big ${'word '.repeat(2000)}\r`);
    await run.pty.waitFor('Reply 6 done.', 20_000);
    run.pty.write('/history\r');
    await run.pty.waitFor('[12] assistant: lorem ipsum');
    const history = run.pty.screen().slice(run.pty.screen().lastIndexOf('/history'));
    const flat = history.replace(/\s*\n\s*/g, ' ');
    expect(flat).toMatch(
      /── compacted just now by chat, \/compact "keep FACT-q2 exactly": messages 1–\d+ summarized/,
    );
    expect(flat).toContain('── compaction cancelled just now (manual): nothing was changed');
    const lines = history.split('\n').map((line) => line.trim());
    const big = lines.findIndex((line) => /\] user: Big FACT-big/.test(line));
    expect(big).toBeGreaterThan(0);
    // The compaction its sending ran comes right above the message, not after it.
    const above = lines
      .slice(0, big)
      .filter((line) => line.startsWith('──'))
      .at(-1);
    expect(above).toMatch(/^── compacted just now by chat: messages 1–\d+ summarized/);
    expect(lines.slice(big).some((line) => line.startsWith('── compacted'))).toBe(false);
  }, 60_000);

  test('a session another ochat holds: the second is told the pid and offered read-only (n) or a new session (y)', async () => {
    const where = place();
    const first = await start(where, ['-m', 'chat']);
    await chatTurns(first, 1, 1);
    const [held] = sessionFiles(where.sessions);
    // The question wraps at the terminal's width, where depends on the pid's length.
    const question = wrapped(
      `is open in another ochat (pid ${first.pty.pid}). Continue it in a new session (y), or open it read-only (n)?`,
    );

    const readOnly = await start(where, ['--continue'], question);
    // Its second row goes under the question's text, not under the `?`.
    const rows = readOnly.pty.screen().split('\n');
    const asked = rows.findLastIndex((row) => row.startsWith('? Session '));
    expect(rows[asked + 1]).toMatch(/^ {2}\S/);
    await readOnly.pty.answer('n');
    await readOnly.pty.waitFor(/Read-only: another ochat \(pid \d+\) has it open/);
    expect(readOnly.pty.screen()).toContain('Question 1, FACT-q1?');
    readOnly.pty.write('Question 2, FACT-q2?\r');
    await readOnly.pty.waitFor(/Question 2, FACT-q2\?[\s\S]*Reply 1 done\./);
    await quit(readOnly);
    expect(sessionFiles(where.sessions)).toEqual([held]);

    const copy = await start(where, ['--continue'], question);
    await copy.pty.answer('y');
    await copy.pty.waitFor(/Continuing in new session \S+, a copy of \S+; the other ochat\s+keeps/);
    await copy.pty.waitFor('Resumed session');
    expect(copy.pty.screen()).not.toContain('Read-only');
    copy.pty.write('Question 3, FACT-q3?\r');
    await copy.pty.waitFor(/Question 3, FACT-q3\?[\s\S]*Reply 1 done\./);
    // The copy carries the conversation on; the held session is untouched by this process.
    const sent = conversationChats(copy.emu)[0].body.messages.map((m: { content: string }) => m.content);
    expect(sent[0]).toBe('Question 1, FACT-q1?');
    await quit(copy);
    const files = sessionFiles(where.sessions);
    expect(files).toHaveLength(2);
    const copied = files.find((f) => f !== held)!;
    expect(readFileSync(join(where.sessions, copied), 'utf8')).toContain('Question 3, FACT-q3?');
    expect(readFileSync(join(where.sessions, held), 'utf8')).not.toContain('Question 3');
  });

  test('-r with an unknown session is a one-line error before the chat starts', async () => {
    const where = place();
    const pty = spawnOchat(['-r', 'nope'], { home: where.home, cwd: where.cwd });
    await pty.waitFor('ochat: No session "nope". ochat --list-sessions lists them.');
    expect(await exitCode(pty)).toBe(2);
    await pty.dispose();
  });
});

describe('/retry', () => {
  test('regenerates the last reply: the screen shows the new one, /history both; after a resume too', async () => {
    const where = place();
    const first = await start(where, ['-m', 'chat']);
    await chatTurns(first, 1, 1);
    first.pty.write('/retry\r');
    await first.pty.waitFor('Regenerating the reply to "Question 1, FACT-q1?"');
    await first.pty.waitFor('Reply 2 done.');
    // Asked again with the question alone: the old reply is not sent.
    const retried = conversationChats(first.emu)[1].body.messages;
    expect(retried).toEqual([{ role: 'user', content: 'Question 1, FACT-q1?' }]);
    first.pty.write('/history\r');
    await first.pty.waitFor('── /retry just now');
    expect(first.pty.screen()).toMatch(/\[2\] \(replaced\) assistant: lorem ipsum/);
    expect(first.pty.screen()).toMatch(/\[3\] assistant: lorem ipsum/);
    await quit(first);

    const second = await start(where, ['--continue'], 'Resumed session');
    await second.pty.waitFor('num_ctx');
    // The resumed screen shows the reply that stands, not the replaced one.
    expect(second.pty.screen()).toContain('Reply 2 done.');
    expect(second.pty.screen()).not.toContain('Reply 1 done.');
    second.pty.write('Question 3, FACT-q3?\r');
    await second.pty.waitFor('Reply 1 done.');
    const sent = conversationChats(second.emu)[0].body.messages.map((m: { content: string }) => m.content);
    expect(sent).toHaveLength(3);
    expect(sent[1]).toContain('Reply 2 done.');
    second.pty.write('/retry\r');
    await second.pty.waitFor(/Regenerating the reply to "Question 3, FACT-q3\?"[\s\S]*Reply 2 done\./);
    expect(conversationChats(second.emu)[1].body).toEqual(conversationChats(second.emu)[0].body);
  });
});

describe('the view of a resumed session', () => {
  test('the banner comes first; replayed compactions carry their percentages, and the /set num_ctx and /model between them are shown', async () => {
    const where = place();
    const models = [...MODELS, { name: 'other:latest', capabilities: ['completion', 'tools'] }];
    const first = await startChat({
      models,
      args: ['-m', 'chat', '--num-ctx', '4096'],
      pty: { home: where.home, cwd: where.cwd },
    });
    runs.push(first);
    first.emu.respondWith(compactionResponder({ chat: chatReplies }));
    await chatTurns(first, 1, 3);
    first.pty.write('/compact\r');
    await first.pty.waitFor(/Compacted \d+ messages: \S+ → \S+ tokens \(\d+% → \d+% of 4k\)/);
    first.pty.write('/set num_ctx 8192\r');
    await first.pty.waitFor('num_ctx = 8192');
    await chatTurns(first, 4, 6);
    first.pty.write('/compact\r');
    await first.pty.waitFor(/Compacted \d+ messages: \S+ → \S+ tokens \(\d+% → \d+% of 8k\)/);
    first.pty.write('/model other\r');
    await first.pty.waitFor('Switched to other');
    await chatTurns(first, 7, 7);
    await quit(first);

    const second = await startChat({
      models,
      args: ['--continue'],
      pty: { home: where.home, cwd: where.cwd },
      readyText: 'Resumed session',
    });
    runs.push(second);
    await second.pty.waitFor('✻ ochat');
    const screen = second.pty.screen();
    // Before: the replayed messages, then the banner under them.
    expect(screen.indexOf('✻ ochat')).toBeLessThan(screen.indexOf('Question 1, FACT-q1?'));
    // In the order they happened, each compaction with the window it was of.
    expect(screen).toMatch(
      /Compacted \d+ messages: \S+ → \S+ tokens \(\d+% → \d+% of 4k\)[\s\S]*num_ctx = 8192[\s\S]*Question 4, FACT-q4\?[\s\S]*Compacted \d+ messages: \S+ → \S+ tokens \(\d+% → \d+% of 8k\)[\s\S]*Switched to other[\s\S]*Question 7, FACT-q7\?/,
    );
    await quit(second);

    // No server: no banner comes, and the hint to retry is not left above the replayed messages.
    const third = await startChat({
      models,
      args: ['--continue'],
      env: { OLLAMA_HOST: 'http://127.0.0.1:9' },
      pty: { home: where.home, cwd: where.cwd },
      readyText: 'Press Enter to try again',
    });
    runs.push(third);
    await third.pty.waitFor('Question 7, FACT-q7?');
    const offline = third.pty.screen();
    expect(offline.indexOf('Press Enter to try again')).toBeGreaterThan(
      offline.indexOf('Question 7, FACT-q7?'),
    );
  }, 60_000);
});

describe('the context meter across a resume', () => {
  const THINKING = [{ name: 'think:latest', capabilities: ['completion', 'thinking'] }];
  const NUM_CTX = 4096;
  // Compaction is due when used + reserve (25% of 4096 = 1024) > num_ctx.
  const LIMIT = NUM_CTX - 1024;

  /** Long replies; the one to "FACT-fill" thinks until the server's count is just under the limit. */
  async function startThinking(where: ReturnType<typeof place>, args: string[], readyText?: string) {
    const run = await startChat({
      models: THINKING,
      args,
      pty: { home: where.home, cwd: where.cwd },
      readyText,
    });
    run.emu.respondWith(
      compactionResponder({
        chat: (req, n) => {
          const messages = req.body.messages as { role: string; content: string }[];
          if (!messages.at(-1)?.content.includes('FACT-fill')) return chatReplies(req, n);
          const content = `Filled. Reply ${n} done.`;
          const prompt = countPromptTokens(messages) + countToolTokens(req.body.tools);
          const thinking = 'hmm '.repeat(LIMIT - 40 - prompt - countTokens(content));
          return { content, thinking };
        },
      }),
    );
    runs.push(run);
    return run;
  }

  test('near the threshold, a resumed session decides on compaction as the original would (server counts kept)', async () => {
    const where = place();
    const args = ['-m', 'think', '--num-ctx', String(NUM_CTX)];
    const first = await startThinking(where, args);
    await chatTurns(first, 1, 3);
    first.pty.write('Think hard, FACT-fill.\r');
    await first.pty.waitFor('Filled. Reply 4 done.');
    expect(first.pty.screen()).not.toMatch(/Compacted \d+ messages/);
    const [file] = sessionFiles(where.sessions);
    const saved = join(where.home, 'saved.jsonl');
    copyFileSync(join(where.sessions, file), saved);

    // The thinking is not sent back, so an estimate of the next request is far under the limit;
    // the server's count (thinking included) says a ~200-token message crosses it.
    const probe = `Probe FACT-probe ${'word '.repeat(160)}`;
    first.pty.write(`${probe}\r`);
    await first.pty.waitFor(/Compacted \d+ messages/);
    await waitForConversationChats(first, 5);
    const original = conversationChats(first.emu)[4];
    expect(original.body.messages[0].role).toBe('system');
    await first.pty.waitFor('Reply 5 done.');
    await quit(first);

    copyFileSync(saved, join(where.sessions, file));
    const second = await startThinking(where, ['--continue'], 'Resumed session');
    await second.pty.waitFor('num_ctx');
    second.pty.write(`${probe}\r`);
    await waitForConversationChats(second, 1);
    expect(bytes(conversationChats(second.emu)[0])).toBe(bytes(original));
  });
});
