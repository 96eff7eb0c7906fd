/**
 * Compaction as the user sees it: the built CLI in a PTY against the Ollama emulator. The report
 * line of /compact, the retry dialog answered by keystroke, and the status while it runs.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { SPINNER_FRAMES } from '../../src/ui/components/spinner.js';
import {
  type CompactionResponderOptions,
  compactionResponder,
  conversationChats,
  failingSummarizer,
  isContinuation,
  keepWhatItIsShown,
  summarizerChats,
} from '../support/compaction-summarizer.js';
import { type ChatRun, startChat } from '../support/e2e-chat.js';
import { type ChatRequestRecord, countPromptTokens, type Responder } from '../support/emulator.js';
import { waitUntil } from '../support/wait-until.js';

/** The report line as it appears on screen (the window is 4096 tokens: `4k`). */
const REPORT = /Compacted (\d+) messages: \S+ → \S+ tokens \(\d+% → \d+% of 4k\)/;
const RETRY = 'Retry compaction? (y/n)';
const TURNS = 4;

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** Replies of about 150 tokens that end in their own paragraph `Reply <n> done.` (easy to wait for). */
const chatReplies = (_req: unknown, n: number) => ({
  content: `${'lorem ipsum '.repeat(50).trim()}\n\nReply ${n} done.`,
});

/** Resolves once `text` is no longer on screen (a dialog closed). */
async function waitUntilGone({ pty }: ChatRun, text: string, timeoutMs = 5000): Promise<void> {
  await waitUntil(`${text} gone from the screen`, () => !pty.screen().includes(text), { timeoutMs });
}

/** Starts ochat on `chat` with a 4096-token window and has `TURNS` exchanges. */
async function chatWithHistory(summarize?: CompactionResponderOptions['summarize']) {
  run = await startChat({ models: [{ name: 'chat:latest' }], args: ['-m', 'chat', '--num-ctx', '4096'] });
  const responder: Responder = compactionResponder({ chat: chatReplies, summarize });
  run.emu.respondWith(responder);
  for (let n = 1; n <= TURNS; n++) {
    run.pty.write(`Question ${n}, FACT-q${n}?\r`);
    await run.pty.waitFor(`Reply ${n} done.`);
  }
  return run;
}

describe('compaction in the terminal', () => {
  test('/compact shows the one-line report', async () => {
    const { emu, pty } = await chatWithHistory();
    pty.write('/compact\r');
    await pty.waitFor(REPORT);

    const n = Number(REPORT.exec(pty.screen())![1]);
    expect(n).toBeGreaterThanOrEqual(2);
    expect(summarizerChats(emu)).toHaveLength(1);
    expect(pty.screen().match(new RegExp(REPORT.source, 'g'))).toHaveLength(1);

    // The next message goes out with the summary and the verbatim tail only.
    pty.write('And now?\r');
    await pty.waitFor(`Reply ${TURNS + 1} done.`);
    const sent = conversationChats(emu).at(-1)!.body.messages;
    expect(sent[0].role).toBe('system');
    expect(sent[0].content).toContain('FACT-q1');
    expect(sent).toHaveLength(1 + 2 * TURNS - n + 1);
  });

  test("the chat model's summary continues the chat's last request: the server takes all but the ask from its cache", async () => {
    const { emu, pty } = await chatWithHistory();
    pty.write('/compact\r');
    await pty.waitFor(REPORT);
    const [ask] = summarizerChats(emu);
    const before = emu.chats[emu.chats.indexOf(ask) - 1];
    expect(isContinuation(ask)).toBe(true);
    expect(ask.body.messages.slice(0, -1)).toEqual(
      before.body.messages.slice(0, ask.body.messages.length - 1),
    );
    expect(ask.body.options.num_ctx).toBe(4096);
    // Evaluated anew: the ask only; everything before it came from the KV cache.
    // (the ask's role marker may match the next message of the cached request: 2 tokens)
    const prefix = countPromptTokens(ask.body.messages.slice(0, -1));
    expect(ask.promptCachedCount).toBeGreaterThanOrEqual(prefix);
    expect(ask.promptCachedCount).toBeLessThanOrEqual(prefix + 2);
  });

  test('a failed compaction asks to retry; "y" retries and succeeds', async () => {
    const { emu, pty } = await chatWithHistory(
      failingSummarizer(1, { kind: 'http', status: 500, error: 'summarizer crashed' }),
    );
    pty.write('/compact\r');
    await pty.waitFor('⚠ Compaction failed: ');
    await pty.waitFor(RETRY);
    expect(pty.screen()).toMatch(/^⚠ Compaction failed: Ollama answered HTTP 500: summarizer crashed/m);
    expect(pty.screen()).not.toMatch(REPORT);

    await pty.answer('y');
    await pty.waitFor(REPORT);
    expect(summarizerChats(emu)).toHaveLength(2);
    expect(pty.screen()).not.toContain(RETRY);
  });

  test('"n" closes the dialog and changes nothing', async () => {
    const { emu, pty } = await chatWithHistory(
      failingSummarizer(1, { kind: 'http', status: 500, error: 'summarizer crashed' }),
    );
    const before = conversationChats(emu).at(-1)!.body.messages;
    pty.write('/compact\r');
    await pty.waitFor(RETRY);

    await pty.answer('n');
    await waitUntilGone(run!, RETRY);
    // The prompt has the keyboard again: the next message is typed and sent as usual.
    pty.write('Still there?\r');
    await pty.waitFor(`Reply ${TURNS + 1} done.`);
    expect(pty.screen()).not.toContain(RETRY);
    expect(pty.screen()).not.toMatch(REPORT);
    expect(summarizerChats(emu)).toHaveLength(1);
    const sent = conversationChats(emu).at(-1)!.body.messages;
    expect(sent).toEqual([
      ...before,
      { role: 'assistant', content: chatReplies(undefined, TURNS).content },
      { role: 'user', content: 'Still there?' },
    ]);
  });

  test('a message typed while compaction runs stays in sight, queued, while the retry question is open', async () => {
    const { emu, pty } = await chatWithHistory((req, call) =>
      call === 1
        ? { fault: { kind: 'http', status: 500, error: 'summarizer crashed' }, firstByteDelayMs: 600 }
        : keepWhatItIsShown(req),
    );
    pty.write('/compact\r');
    await pty.waitFor('compacting…');
    pty.write('Typed while compacting FACT-late\r');
    await pty.waitFor(RETRY);
    // Under the question, dimmed and marked as queued: not lost from sight while it waits.
    const rows = pty.screen().split('\n');
    const retryRow = rows.findLastIndex((row) => row.includes(RETRY));
    const queuedRow = rows.findLastIndex((row) => row.startsWith('› Typed while compacting FACT-late'));
    expect(queuedRow).toBeGreaterThan(-1);
    expect(queuedRow).toBeLessThan(retryRow);
    expect(rows[queuedRow + 1]).toContain('queued · esc on an empty prompt takes the last one back');
    expect(pty.raw()).toMatch(/\x1b\[2m› Typed while compacting FACT-late/);
    // It is sent once the question is answered (and not before).
    expect(conversationChats(emu).some((c) => JSON.stringify(c.body).includes('FACT-late'))).toBe(false);
    await pty.answer('n');
    await pty.waitFor(`Reply ${TURNS + 1} done.`);
    expect(conversationChats(emu).at(-1)!.body.messages.at(-1).content).toBe(
      'Typed while compacting FACT-late',
    );
    expect(pty.screen()).not.toContain('queued · esc');
  });

  test('the status line shows that compaction is running until it is done', async () => {
    const { pty } = await chatWithHistory((req: ChatRequestRecord) => ({
      ...keepWhatItIsShown(req),
      firstByteDelayMs: 800,
    }));
    pty.write('/compact\r');
    const status = new RegExp(`([${SPINNER_FRAMES.join('')}]) compacting…`);
    await pty.waitFor(status);
    expect(pty.screen()).not.toMatch(REPORT);
    // It is a spinner: the glyph moves on while the summarizer works.
    const first = status.exec(pty.screen())![1];
    const others = SPINNER_FRAMES.filter((f) => f !== first).join('');
    await pty.waitFor(new RegExp(`[${others}] compacting…`));
    expect(pty.screen()).not.toMatch(REPORT);
    await pty.waitFor(REPORT);
    // The spinner is gone once the report is there.
    const rows = pty.screen().split('\n');
    expect(rows.slice(-3).join('\n')).not.toContain('compacting…');
  });
});
