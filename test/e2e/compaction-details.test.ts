/**
 * Exact details through compaction, as the user gets them: the built CLI in a PTY against the
 * emulator, whose summarizer keeps only the gist (it drops every path, number, command and id,
 * as small local models do). The eleven details of issue #33 must still reach the model.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { RECALL_MAX_CHARS } from '../../src/conversation/recall-search.js';
import { ELEVEN } from '../compaction/eleven-details.js';
import {
  compactionResponder,
  conversationChats,
  gistOnly,
  isMissingDetailsRequest,
  sliceLines,
  summarizerChats,
} from '../support/compaction-summarizer.js';
import { type ChatRun, exitCode, placeForRuns, removePlaces, startChat } from '../support/e2e-chat.js';
import type { ChatRequestRecord } from '../support/emulator.js';
import { wrapped } from '../support/pty-session.js';
import { startToolRun, type ToolRun } from '../support/tools-e2e.js';
import { waitUntil } from '../support/wait-until.js';

let run: ChatRun | ToolRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
  removePlaces();
});

/** Replies that end in `Reply <n> done.`, easy to wait for. */
const replies = (_req: unknown, n: number) => ({
  content: `${'noted '.repeat(20).trim()}\n\nReply ${n} done.`,
});

/** Compactions so far: summarizer requests that fold a slice (not the second asks). */
const compactions = (run: ChatRun | ToolRun) =>
  summarizerChats(run.emu).filter((r) => sliceLines(r).length > 0).length;

/**
 * Filler turns (the reply to message `n` was the last) until `count` compactions ran; returns the
 * number of the last reply.
 */
async function fillUntilCompactions(run: ChatRun | ToolRun, count: number, n: number): Promise<number> {
  while (compactions(run) < count && n < 80) {
    n += 1;
    run.pty.write(`Filler ${n}: ${'lorem ipsum dolor sit amet '.repeat(25).trim()}\r`);
    await run.pty.waitFor(`Reply ${n} done.`);
  }
  expect(compactions(run)).toBeGreaterThanOrEqual(count);
  return n;
}

/** Sends `intro` with `lines` pasted after it as the first message, and waits for its reply. */
async function pasteFirst(run: ChatRun | ToolRun, intro: string, lines: readonly string[]): Promise<void> {
  run.pty.write(intro);
  await run.pty.writeInPieces(`\x1b[200~${lines.join('\r')}\x1b[201~`);
  await run.pty.waitFor(`[pasted ${lines.length} lines]`);
  run.pty.write('\r');
  await run.pty.waitFor('Reply 1 done.');
}

/** Whether a request offered the model `recall`. */
const offersRecall = (req: ChatRequestRecord) =>
  (req.body.tools ?? []).some((t: { function: { name: string } }) => t.function.name === 'recall');

/** A model without tools, and one with them: its requests carry the built-ins, then recall too. */
const MODELS = [
  { name: 'chat:latest', capabilities: ['completion'] },
  { name: 'chat:latest', capabilities: ['completion', 'tools'] },
];

describe('exact details with a gist-only summarizer', () => {
  test.each(MODELS)(
    'all eleven reach the model after three compactions at 4096, none truncated, and the report says how they were kept ($capabilities)',
    async (model) => {
      run = await startChat({ models: [model], args: ['-m', 'chat', '--num-ctx', '4096'] });
      const { emu, pty } = run;
      emu.respondWith(compactionResponder({ summarize: gistOnly, chat: replies }));
      let n = 0;
      for (const [, sentence] of ELEVEN) {
        n += 1;
        pty.write(`${sentence}\r`);
        await pty.waitFor(`Reply ${n} done.`);
      }
      n = await fillUntilCompactions(run, 3, n);
      n += 1;
      pty.write('What do you remember?\r');
      await pty.waitFor(`Reply ${n} done.`);

      const last = conversationChats(emu).at(-1)!;
      expect(last.truncated).toBe(false);
      expect(emu.chats.filter((c) => c.truncated)).toEqual([]);
      expect(offersRecall(last)).toBe(model.capabilities.includes('tools'));
      const seen = last.keptMessages.map((m) => String(m.content)).join('\n');
      // Only through the summary section: the sentences are long gone from the verbatim tail.
      expect(last.keptMessages.filter((m) => m.role === 'user').map((m) => m.content)).not.toContain(
        ELEVEN[0][1],
      );
      for (const [, , detail] of ELEVEN) expect(seen).toContain(detail);
      // The gist kept none of them, though it was asked twice: the list did.
      expect(summarizerChats(emu).some(isMissingDetailsRequest)).toBe(true);
      expect(pty.screen()).toMatch(
        wrapped('11 exact details kept (0 by the summary, 11 in the details list)'),
      );

      pty.write('/summary\r');
      await pty.waitFor(wrapped('Exact details the summary left out, kept verbatim beside it (11):'));
      expect(pty.screen()).toMatch(wrapped('- 5433 (host listens on port …)'));
    },
  );
});

describe('/pin', () => {
  const NOTE = 'Deploy only from tag v2.14.3 via `make release TARGET=eu-2`; never on Fridays.';

  test('a pinned note reaches the model verbatim after three gist-only compactions and a resume, and /context counts it', async () => {
    const where = placeForRuns('ochat-pin-e2e-');
    const args = ['-m', 'chat', '--num-ctx', '4096'];
    // A model with tools: recall is offered beside the pin once the chat is compacted.
    const models = [{ name: 'chat:latest', capabilities: ['completion', 'tools'] }];
    run = await startChat({ models, args, pty: { home: where.home, cwd: where.cwd } });
    run.emu.respondWith(compactionResponder({ summarize: gistOnly, chat: replies }));
    let n = 0;
    const say = async (text: string) => {
      n += 1;
      run!.pty.write(`${text}\r`);
      await run!.pty.waitFor(`Reply ${n} done.`);
    };
    await say(NOTE);
    run.pty.write('/pin\r');
    await run.pty.waitFor('Pinned as #1');
    n = await fillUntilCompactions(run, 3, n);
    await say('Where do we deploy from?');
    const last = conversationChats(run.emu).at(-1)!;
    expect(last.truncated).toBe(false);
    expect(offersRecall(last)).toBe(true);
    expect(String(last.keptMessages[0].content)).toContain(`1. ${NOTE}`);
    run.pty.write('/context\r');
    await run.pty.waitFor(/pinned notes +\d+/);
    run.pty.write('/quit\r');
    expect(await exitCode(run.pty)).toBe(0);
    await run.close();

    run = await startChat({
      models,
      args: ['--continue'],
      pty: { home: where.home, cwd: where.cwd },
      readyText: 'Resumed session',
    });
    run.emu.respondWith(compactionResponder({ summarize: gistOnly, chat: replies }));
    await run.pty.waitFor('num_ctx');
    run.pty.write('/pins\r');
    await run.pty.waitFor(wrapped(`1. ${NOTE}`));
    run.pty.write('And now?\r');
    // Not the screen's 'Reply 1 done.': the resumed session shows the first session's replies.
    await waitUntil('the resumed chat to send its message', () => conversationChats(run!.emu).length > 0);
    expect(String(conversationChats(run.emu)[0].keptMessages[0].content)).toContain(`1. ${NOTE}`);
    run.pty.write('/unpin 1\r');
    await run.pty.waitFor('Unpinned note 1.');
  });

  test('a note the window cannot hold beside compaction is refused with the figures, and nothing is pinned', async () => {
    run = await startChat({ models: [{ name: 'chat:latest' }], args: ['-m', 'chat', '--num-ctx', '2048'] });
    run.pty.write(`/pin ${'remember this '.repeat(800)}\r`);
    await run.pty.waitFor(wrapped('would need to be at least'));
    expect(run.pty.screen()).toMatch(/Not pinned: with it the system message and pins take [\d,]+ tokens/);
    run.pty.write('/pins\r');
    await run.pty.waitFor('No pinned notes.');
  });
});

describe('recall', () => {
  const LINE = '    at PaymentsClient.charge (src/payments/client.ts:431:17)';
  const trace = Array.from({ length: 60 }, (_, i) =>
    i === 30 ? LINE : `    at frame${i} (node:internal/mod.js:${i}:9)`,
  );

  test("after compactions, the model's recall call gets a line from the middle of a pasted stack trace verbatim, bounded", async () => {
    const tools = await startToolRun({ args: ['--num-ctx', '4096'] });
    run = tools;
    const { emu, pty } = tools;
    emu.respondWith(
      compactionResponder({
        summarize: gistOnly,
        chat: (req, n) => {
          const last = req.body.messages.at(-1);
          if (last.role === 'user' && /where exactly/i.test(String(last.content)) && offersRecall(req))
            return { toolCalls: [{ name: 'recall', arguments: { query: 'PaymentsClient.charge' } }] };
          return replies(req, n);
        },
      }),
    );
    await pasteFirst(tools, 'Here is the crash: ', ['TypeError: boom', ...trace]);
    expect(offersRecall(conversationChats(emu)[0])).toBe(false);
    const n = await fillUntilCompactions(tools, 2, 1);
    pty.write('Where exactly did the charge fail?\r');
    await pty.waitFor(`Reply ${n + 2} done.`);
    // The request the model called recall in had lost the line: the gist and the details list
    // kept none of the paste, and the paste is long gone from the verbatim tail.
    const asked = conversationChats(emu).at(-2)!;
    expect(offersRecall(asked)).toBe(true);
    expect(asked.keptMessages.at(-1)?.content).toBe('Where exactly did the charge fail?');
    expect(asked.keptMessages.map((m) => String(m.content)).join('\n')).not.toContain('client.ts:431');
    const after = conversationChats(emu).at(-1)!;
    const result = after.keptMessages.find((m) => m.role === 'tool');
    expect(result?.content).toContain([trace[29], LINE, trace[31]].join('\n'));
    expect(String(result?.content).length).toBeLessThanOrEqual(3200);
    expect(after.keptMessages.some((m) => m.role === 'user' && String(m.content).includes(LINE))).toBe(false);

    pty.write('/recall client.ts:431\r');
    await pty.waitFor(wrapped(LINE.trim()));
  });

  test('/recall TEXT typed by the user finds a line of a paste two gist-only compactions folded, with where it is, bounded', async () => {
    // A model without tools: the user's search does not need the model's.
    run = await startChat({ models: [{ name: 'chat:latest' }], args: ['-m', 'chat', '--num-ctx', '4096'] });
    const { emu, pty } = run;
    emu.respondWith(compactionResponder({ summarize: gistOnly, chat: replies }));
    // A detail on every line: line 77's are past the details list's cap for one message, folded from the start.
    const log = Array.from({ length: 150 }, (_, i) => `retry ${i}: upstream timed out after ${100 + i} ms`);
    log[77] = 'retry 77: upstream answered 418 from edge-node-b7';
    await pasteFirst(run, 'The retry log: ', log);
    await fillUntilCompactions(run, 2, 1);
    const seen = conversationChats(emu)
      .at(-1)!
      .keptMessages.map((m) => String(m.content));
    expect(seen.join('\n')).not.toContain('edge-node-b7');
    // Not silently: the list counts what it folded.
    expect(seen.join('\n')).toMatch(/\(\d+ exact details folded to fit; recall finds them\)/);

    pty.write('/recall edge-node-b7\r');
    // The line with one of context each side, under its message number, role and time.
    await pty.waitFor(wrapped(log[77]));
    const screen = pty.screen();
    expect(screen).toMatch(/\[message 1, user, \d{4}-\d\d-\d\dT[\d:.]+Z\]/);
    expect(screen).toContain(log[76]);
    expect(screen).toContain(log[78]);

    // 150 lines match: at most 3,000 characters of them are shown, and how many more matched.
    pty.write('/recall upstream timed out\r');
    await pty.waitFor(wrapped('more matching lines not shown: a more precise query narrows them)'));
    const shown = pty.screen().split('/recall upstream timed out').at(-1) ?? '';
    const passages = shown.match(/\[message 1, user, /g) ?? [];
    const more = Number(/\((\d+) more matching lines not shown/.exec(shown)?.[1]);
    expect(passages.length).toBeGreaterThan(10);
    expect(passages.length + more).toBe(150);
    const lines = shown
      .split('\n')
      .filter((line) => line.includes('upstream'))
      .map((line) => line.trim());
    expect(lines.join('').length).toBeLessThanOrEqual(RECALL_MAX_CHARS);
  });
});
