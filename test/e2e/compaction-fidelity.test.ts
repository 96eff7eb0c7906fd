/**
 * Compaction fidelity as the user gets it: the built CLI in a PTY against the Ollama emulator.
 * The model's own Modelfile SYSTEM stays in force after a compaction, a fact found only in a
 * tool's output survives compactions, and the meter counts what is really sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { CUT_OFF_NOTICE } from '../../src/compaction/summarizer-prompt.js';
import {
  compactionResponder,
  conversationChats,
  factsIn,
  failingSummarizer,
  summarizerChats,
  summarizerPrompt,
  writingToLimit,
} from '../support/compaction-summarizer.js';
import { type ChatRun, PROMPT_PLACEHOLDER, startChat } from '../support/e2e-chat.js';
import { countTokens } from '../support/emulator.js';
import { wrapped } from '../support/pty-session.js';
import { startToolRun, type ToolRun } from '../support/tools-e2e.js';
import { waitUntil } from '../support/wait-until.js';

/** The report line as it appears on screen. */
const REPORT = /Compacted (\d+) messages?: \S+ → \S+ tokens \(\d+% → \d+% of \S+\)/;
const MODELFILE_SYSTEM = 'You are Mario, a plumber. Sign every answer FACT-modelfile_mario.';

let run: ChatRun | ToolRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** Replies of about 150 tokens that end in their own paragraph `Reply <n> done.` (easy to wait for). */
const chatReplies = (_req: unknown, n: number) => ({
  content: `${'lorem ipsum '.repeat(50).trim()}\n\nReply ${n} done.`,
});

/** The screen with its line wrapping undone: every run of whitespace made one space. */
const flat = (screen: string) => screen.replace(/\s+/g, ' ');

/** The meter of the status line, e.g. `813/4k (20%)` → 813 (only exact below 1000 tokens). */
function meter(screen: string): number {
  const match = /· (\d+)\/4k \(\d+%\)/.exec(screen);
  if (!match) throw new Error(`no exact meter on screen:\n${screen}`);
  return Number(match[1]);
}

describe('the model’s own system prompt (Modelfile SYSTEM)', () => {
  test('is in force before and after a compaction, and /context counts it', async () => {
    run = await startChat({
      models: [{ name: 'mario:latest', system: MODELFILE_SYSTEM }],
      args: ['-m', 'mario', '--num-ctx', '4096'],
    });
    const { emu, pty } = run;
    emu.respondWith(compactionResponder({ chat: chatReplies }));
    for (let n = 1; n <= 4; n++) {
      pty.write(`Question ${n}, FACT-q${n}?\r`);
      await pty.waitFor(`Reply ${n} done.`);
    }
    pty.write('/compact\r');
    await pty.waitFor(REPORT);
    pty.write('And now?\r');
    await pty.waitFor('Reply 5 done.');

    const chats = conversationChats(emu);
    expect(chats).toHaveLength(5);
    // What the model saw (the server applies the Modelfile SYSTEM only to chats not starting with a system message).
    for (const chat of chats) {
      expect(chat.keptMessages[0].role).toBe('system');
      expect(chat.keptMessages[0].content).toContain(MODELFILE_SYSTEM);
    }
    const after = String(chats.at(-1)!.keptMessages[0].content);
    expect(after).toContain('[Summary of the earlier conversation');
    expect(factsIn(after)).toEqual(expect.arrayContaining(['FACT-q1', 'FACT-modelfile_mario']));
    expect(chats.at(-1)!.keptMessages.filter((m) => m.role === 'system')).toHaveLength(1);

    pty.write('/system\r');
    await pty.waitFor("No system prompt is set; the model's own applies:");
    pty.write('/context\r');
    await pty.waitFor(/ {2}system +(\d+) /);
    expect(Number(/ {2}system +(\d+) /.exec(pty.screen())![1])).toBeGreaterThan(0);
  });
});

describe('facts found only in a tool’s output', () => {
  test('still reach the model after two compactions although the assistant never repeated them', async () => {
    const tools = await startToolRun({ args: ['--num-ctx', '2048'] });
    run = tools;
    const { emu, pty, cwd } = tools;
    writeFileSync(join(cwd, 'deploy.txt'), 'target host: FACT-deploy_host_7\nport: 2222\n');
    emu.respondWith(
      compactionResponder({
        chat: (_req, n) =>
          n === 1
            ? { toolCalls: [{ name: 'read_file', arguments: { path: 'deploy.txt' } }] }
            : { content: `Reply ${n} done.` },
      }),
    );
    pty.write('Read deploy.txt please.\r');
    await pty.waitFor('Reply 2 done.');
    let turn = 2;
    while (summarizerChats(emu).length < 2 && turn < 40) {
      turn += 1;
      pty.write(`Filler ${turn}: ${'lorem ipsum '.repeat(100).trim()}\r`);
      await pty.waitFor(`Reply ${turn} done.`);
    }
    expect(summarizerChats(emu).length).toBeGreaterThanOrEqual(2);
    pty.write('Where do we deploy?\r');
    await pty.waitFor(`Reply ${turn + 1} done.`);

    const last = conversationChats(emu).at(-1)!;
    expect(last.truncated).toBe(false);
    // Only through the summary: the tool result is no longer in the verbatim tail.
    expect(last.keptMessages.some((m) => m.role === 'tool')).toBe(false);
    expect(String(last.keptMessages[0].content)).toContain('FACT-deploy_host_7');
  });
});

describe('the meter', () => {
  test('counts the tool definitions: a system prompt set does not make it drop', async () => {
    run = await startToolRun({ args: ['--num-ctx', '4096'] });
    const { emu, pty } = run;
    emu.respondWith(compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n} done.` }) }));
    pty.write('hello\r');
    await pty.waitFor('Reply 1 done.');
    const counted = emu.chats.at(-1)!;
    // The server's count, tool definitions included, plus the reply: what the meter shows.
    await pty.waitFor(`· ${counted.promptEvalCount + countTokens('Reply 1 done.')}/4k`);
    const before = meter(pty.screen());

    pty.write('/system Be brief.\r');
    await pty.waitFor('System prompt set.');
    // The meter counts the new system prompt on the next frame.
    await waitUntil('the meter to grow', () => meter(pty.screen()) > before, { describe: pty.screen });
  });

  test('/set num_ctx shows the value in force when it is capped', async () => {
    run = await startChat({
      models: [{ name: 'small:latest', trainedContext: 32768 }],
      args: ['-m', 'small', '--num-ctx', '4096'],
    });
    run.pty.write('/set num_ctx 999999999\r');
    await run.pty.waitFor('✓ num_ctx = 32768');
    expect(run.pty.screen()).not.toContain('num_ctx = 999999999');
    expect(run.pty.screen()).toMatch(/small · \d+\/32k/);
  });
});

/** Replies of about 300 emulator tokens ending in `Reply <n> done.`. */
const longReplies = (_req: unknown, n: number) => ({
  content: `${'lorem ipsum '.repeat(100).trim()}\n\nReply ${n} done.`,
});

describe('a turn that alone does not fit', () => {
  test('a huge tool output in the newest turn is shortened to its head and summary, not cut by Ollama', async () => {
    const tools = await startToolRun({ args: ['--num-ctx', '2048'] });
    run = tools;
    const { emu, pty, cwd } = tools;
    writeFileSync(join(cwd, 'big.log'), `first line FACT-log_head\n${'log line of filler\n'.repeat(1000)}`);
    emu.respondWith(
      compactionResponder({
        chat: (_req, n) =>
          n === 1
            ? { toolCalls: [{ name: 'read_file', arguments: { path: 'big.log' } }] }
            : { content: `Reply ${n} done.` },
      }),
    );
    pty.write('Read big.log please.\r');
    await pty.waitFor('Reply 2 done.');

    const withResult = conversationChats(emu).at(-1)!;
    expect(withResult.truncated).toBe(false);
    const tool = withResult.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool.content).toContain('FACT-log_head');
    expect(tool.content).toMatch(
      /\[output shortened to fit the context window, \d+ chars omitted; summary: read_file: .*big\.log/,
    );
  });

  test('a message too large for the window even after compaction is announced with its numbers; "n" sends nothing', async () => {
    run = await startChat({ args: ['-m', 'llama3.2', '--num-ctx', '4096'] });
    const { emu, pty } = run;
    pty.write(`${'x'.repeat(18_000)}\r`);
    await pty.waitFor('Send it anyway? (y/n)');
    expect(flat(pty.screen())).toContain(
      '⚠ This message is about 4.5k tokens; even after compaction the request carrying it would be about 4.5k tokens, more than num_ctx 4k. Sent as it is, Ollama would cut it without notice.',
    );
    await pty.answer('n');
    await pty.waitFor('Not sent. Shorten it');
    expect(flat(pty.screen())).toContain('/set num_ctx <tokens> (llama3.2 takes up to 128k)');
    expect(emu.chats).toHaveLength(0);

    pty.write('short one\r');
    await pty.waitFor('Echo: short one');
    expect(conversationChats(emu)).toHaveLength(1);
  });

  test('a compaction failure no retry can fix is not offered as retryable', async () => {
    run = await startChat({ args: ['-m', 'llama3.2', '--num-ctx', '4096'] });
    const { emu, pty } = run;
    emu.respondWith(compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n} done.` }) }));
    pty.write('hi\r');
    await pty.waitFor('Reply 1 done.');
    pty.write('hello\r');
    await pty.waitFor('Reply 2 done.');
    pty.write('/compact\r');
    await pty.waitFor(/Retrying would\s+not help/);
    expect(flat(pty.screen())).toMatch(/⚠ Compaction failed: the summary would not make the context smaller/);
    expect(pty.screen()).not.toContain('Retry compaction?');
    pty.write('still here\r');
    await pty.waitFor('Reply 3 done.');
  });

  test('a paused automatic compaction is announced and shown in the status line until /compact succeeds', async () => {
    run = await startChat({ args: ['-m', 'llama3.2', '--num-ctx', '2048'] });
    const { emu, pty } = run;
    emu.respondWith(
      compactionResponder({
        chat: longReplies,
        summarize: failingSummarizer(1, { kind: 'http', status: 500, error: 'summarizer crashed' }),
      }),
    );
    let n = 0;
    while (!pty.screen().includes('Retry compaction?') && n < 12) {
      n += 1;
      pty.write(`Question ${n}\r`);
      await pty.waitFor(new RegExp(`Reply ${n} done\\.|Retry compaction\\?`));
    }
    await pty.waitFor('Retry compaction? (y/n)');
    await pty.answer('n');
    await pty.waitFor('Automatic compaction is paused until a /compact succeeds.');
    await pty.waitFor(/llama3\.2 · \S+\/2k \(\d+%\) · auto-compact paused/);
    // A question the loop typed while the retry question was opening waits in the prompt (typed
    // keys are kept, not sent, while a question is open): clear it, or /compact would join it.
    pty.write('\x1b');
    await pty.waitFor(PROMPT_PLACEHOLDER);

    pty.write('/compact\r');
    await pty.waitFor(REPORT);
    await pty.waitFor(/llama3\.2 · \S+\/2k \(\d+%\)(?! · auto-compact paused)/);
    const status = pty
      .screen()
      .split('\n')
      .filter((line) => line.includes('llama3.2 · '));
    expect(status.at(-1)).not.toContain('auto-compact paused');
  });
});

describe('the tool log', () => {
  test('keeps every tool line exactly while the summary has room, and /summary lists them in full', async () => {
    const tools = await startToolRun({ args: ['--num-ctx', '4096'] });
    run = tools;
    const { emu, pty, cwd } = tools;
    const CALLS = 25;
    for (let i = 1; i <= CALLS; i++) writeFileSync(join(cwd, `f${i}.txt`), `content ${i}\n`);
    emu.respondWith(
      compactionResponder({
        chat: (req) => {
          const last = req.body.messages.at(-1);
          const file = /^read (f\d+\.txt)$/.exec(String(last.content))?.[1];
          if (last.role === 'user' && file)
            return { toolCalls: [{ name: 'read_file', arguments: { path: file } }] };
          return { content: `${'lorem ipsum '.repeat(50).trim()} Done ${conversationChats(emu).length}.` };
        },
      }),
    );
    for (let i = 1; i <= CALLS; i++) {
      pty.write(`read f${i}.txt\r`);
      await tools.waitForRequests(2 * i);
    }
    pty.write('/compact\r');
    pty.write('next\r');
    await tools.waitForRequests(2 * CALLS + 1);
    expect(summarizerChats(emu).length).toBeGreaterThanOrEqual(1);

    const system = String(conversationChats(emu).at(-1)!.keptMessages[0].content);
    const logged = system.split('\n').filter((line) => /^- read_file: /.test(line));
    expect(system).not.toContain('earlier tool call');
    // Every call summarized is in the log, one exact line each, in order.
    expect(logged.length).toBeGreaterThanOrEqual(15);
    for (const [i, line] of logged.entries())
      expect(line).toBe(`- read_file: read f${i + 1}.txt (lines 1–1 of 1)`);

    pty.write('/summary\r');
    await pty.waitFor(`Tool calls (${logged.length}):`);
  });
});

describe('a summary the server cuts off at num_predict', () => {
  /** Chats, a fact a turn, until the first automatic compaction is reported; returns the turns sent. */
  async function chatUntilCompacted(chat: ChatRun): Promise<number> {
    let n = 0;
    while (summarizerChats(chat.emu).length === 0 && n < 40) {
      n += 1;
      chat.pty.write(`Question ${n}, FACT-q${n}?\r`);
      await chat.pty.waitFor(`Reply ${n} done.`);
    }
    await chat.pty.waitFor(REPORT, 30_000);
    return n;
  }

  test('is asked for again; cut off again, the report and /summary say its end was lost', async () => {
    const chat = await startChat({ args: ['-m', 'llama3.2', '--num-ctx', '4096'] });
    run = chat;
    // Four times the stated limit: past num_predict (twice the budget), so the server stops it.
    chat.emu.respondWith(compactionResponder({ chat: chatReplies, summarize: writingToLimit(4) }));
    await chatUntilCompacted(chat);

    await chat.pty.waitFor(
      wrapped("summary cut: the summarizer's reply ran past its length limit and lost its end"),
    );
    const asks = summarizerChats(chat.emu);
    expect(asks.filter((c) => summarizerPrompt(c).includes(CUT_OFF_NOTICE))).toHaveLength(1);
    chat.pty.write('/summary\r');
    await chat.pty.waitFor(wrapped('the server cut off its end, unseen.'));
  });

  test('told its reply was cut off, a summarizer that then obeys keeps every fact, and no cut is reported', async () => {
    const chat = await startChat({ args: ['-m', 'llama3.2', '--num-ctx', '4096'] });
    run = chat;
    const overshooting = writingToLimit(4);
    const obedient = writingToLimit(1);
    chat.emu.respondWith(
      compactionResponder({
        chat: chatReplies,
        summarize: (req) =>
          summarizerPrompt(req).includes(CUT_OFF_NOTICE) ? obedient(req) : overshooting(req),
      }),
    );
    const turns = await chatUntilCompacted(chat);
    chat.pty.write('And now?\r');
    await chat.pty.waitFor(`Reply ${turns + 1} done.`);

    expect(flat(chat.pty.screen())).not.toContain('summary cut');
    expect(
      summarizerChats(chat.emu).filter((c) => summarizerPrompt(c).includes(CUT_OFF_NOTICE)),
    ).toHaveLength(1);
    const seen = conversationChats(chat.emu)
      .at(-1)!
      .keptMessages.flatMap((m) => factsIn(String(m.content)));
    const planted = Array.from({ length: turns }, (_, i) => `FACT-q${i + 1}`);
    expect(planted.filter((fact) => !seen.includes(fact))).toEqual([]);
  });
});
