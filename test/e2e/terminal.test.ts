/**
 * The terminal around the chat, end to end (issue 12, "The line editor and the terminal"): resizing
 * while a reply streams, Ctrl+T for the thinking of every reply, and the status line, /summary and
 * /tools laid out for a person. The built CLI in a PTY against the emulator, colours on.
 */

import { afterEach, describe, expect, test } from 'vitest';
import { compactionResponder } from '../support/compaction-summarizer.js';
import { type ChatRun, PROMPT_PLACEHOLDER, startChat } from '../support/e2e-chat.js';
import { deliberatePause, waitUntil } from '../support/wait-until.js';

const THINKING_MODEL = [{ name: 'qwen3:latest', family: 'qwen3', capabilities: ['completion', 'thinking'] }];

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('resizing', () => {
  test('120 → 50 → 120 columns while a reply streams leaves one copy of the partial reply', async () => {
    run = await startChat({ pty: { cols: 120, rows: 30 } });
    const { emu, pty } = run;
    // One paragraph (it stays in the live area) of ~100-column lines, streamed slowly.
    const words = Array.from({ length: 60 }, (_, i) => `w${String(i).padStart(2, '0')}`);
    emu.enqueue({ content: `STREAM-START ${words.join(' ')} ${'filler '.repeat(200)}`, tokensPerSecond: 40 });
    pty.write('stream please\r');
    await pty.waitFor('w30');
    pty.resize(50, 30);
    await deliberatePause(300, 'the terminal stays narrow a moment, as a person resizing it');
    pty.resize(120, 30);
    await deliberatePause(600, 'a window in which a second copy of the partial reply would be drawn');
    const screen = pty.screen();
    expect(occurrences(screen, 'STREAM-START')).toBe(1);
    expect(occurrences(screen, 'stream please')).toBe(1);
    expect(occurrences(screen, PROMPT_PLACEHOLDER)).toBe(1);
    pty.write('\x03');
    await pty.waitFor('[interrupted]');
    expect(occurrences(pty.screen(), 'STREAM-START')).toBe(1);
  });

  test('after a resize the finished conversation is laid out at the new width', async () => {
    run = await startChat({ pty: { cols: 100, rows: 30 } });
    const { emu, pty } = run;
    emu.enqueue({ content: `LAYOUT ${'abcdefgh '.repeat(20)}END-OF-REPLY` });
    pty.write('hi\r');
    await pty.waitFor('END-OF-REPLY');
    pty.resize(40, 30);
    await deliberatePause(600, 'a window in which the rows printed at 100 columns would be left as they are');
    await pty.waitFor(PROMPT_PLACEHOLDER);
    const rows = pty.screen().split('\n');
    // Printed again at 40 columns, wrapped between words — the terminal's own re-wrap of the rows
    // printed at 100 columns would cut words in two.
    const replyRows = rows.filter((row) => row.includes('abcd') || row.includes('efgh'));
    expect(replyRows.length).toBeGreaterThanOrEqual(5);
    for (const row of replyRows) {
      for (const word of row.trim().split(/\s+/))
        expect(['LAYOUT', 'abcdefgh', 'END-OF-REPLY']).toContain(word);
    }
    expect(occurrences(pty.screen(), 'LAYOUT')).toBe(1);
    expect(occurrences(pty.screen(), 'END-OF-REPLY')).toBe(1);
  });
});

describe('what was above ochat stays (its own rows are redrawn, never the shell history)', () => {
  const ABOVE = 'SHELL-HISTORY-1 $ ls\nSHELL-HISTORY-2 a.txt b.txt\nSHELL-HISTORY-3 $ ochat\n';
  const shellLinesKept = (screen: string) =>
    ['SHELL-HISTORY-1', 'SHELL-HISTORY-2', 'SHELL-HISTORY-3'].every(
      (line) => occurrences(screen, line) === 1,
    );

  test('Ctrl+T with no thinking to show redraws nothing and keeps the scrollback', async () => {
    run = await startChat({ pty: { cols: 100, rows: 30, above: ABOVE } });
    const { emu, pty } = run;
    emu.enqueue({ content: 'PLAIN-REPLY without thinking.' });
    pty.write('hi\r');
    await pty.waitFor('PLAIN-REPLY');
    const before = pty.raw().length;
    pty.write('\x14');
    await deliberatePause(
      400,
      'a window in which a wrong erase of the screen or scrollback would be written',
    );
    expect(pty.raw().slice(before)).not.toContain('\x1b[3J');
    expect(pty.raw().slice(before)).not.toContain('\x1b[2J');
    expect(shellLinesKept(pty.screen())).toBe(true);
    expect(occurrences(pty.screen(), 'PLAIN-REPLY')).toBe(1);
  });

  test('a resize redraws the conversation at the new width below the shell lines, which stay', async () => {
    run = await startChat({ pty: { cols: 100, rows: 30, above: ABOVE } });
    const { emu, pty } = run;
    emu.enqueue({ content: `WIDE-REPLY ${'abcdefgh '.repeat(20)}END-OF-REPLY` });
    pty.write('hi\r');
    await pty.waitFor('END-OF-REPLY');
    pty.resize(60, 30);
    await deliberatePause(600, 'a window in which a wrong erase of the rows above ochat would be written');
    await pty.waitFor(PROMPT_PLACEHOLDER);
    const screen = pty.screen();
    expect(shellLinesKept(screen)).toBe(true);
    expect(occurrences(screen, 'WIDE-REPLY')).toBe(1);
    expect(occurrences(screen, 'END-OF-REPLY')).toBe(1);
    expect(occurrences(screen, PROMPT_PLACEHOLDER)).toBe(1);
    // The shell's lines come first, then ochat's.
    expect(screen.indexOf('SHELL-HISTORY-3')).toBeLessThan(screen.indexOf('WIDE-REPLY'));
    expect(pty.raw()).not.toContain('\x1b[3J');
  });

  test('Ctrl+L draws the conversation again, once, below the shell lines', async () => {
    run = await startChat({ pty: { cols: 100, rows: 30, above: ABOVE } });
    const { emu, pty } = run;
    emu.enqueue({ content: 'REDRAWN-REPLY here.' });
    pty.write('hi\r');
    await pty.waitFor('REDRAWN-REPLY');
    const printed = occurrences(pty.raw(), 'REDRAWN-REPLY');
    pty.write('\x0c');
    await waitUntil(
      'the conversation printed again',
      () => occurrences(pty.raw(), 'REDRAWN-REPLY') > printed,
    );
    await deliberatePause(200, 'a window in which a second copy of the conversation would be drawn');
    const screen = pty.screen();
    expect(shellLinesKept(screen)).toBe(true);
    expect(occurrences(screen, 'REDRAWN-REPLY')).toBe(1);
    expect(occurrences(screen, PROMPT_PLACEHOLDER)).toBe(1);
  });
});

describe('Ctrl+T', () => {
  test('toggles the thinking of every reply, earlier and later ones; the hint says the state', async () => {
    run = await startChat({ models: THINKING_MODEL, args: ['-m', 'qwen3'] });
    const { emu, pty } = run;
    const first = 'FIRST-THOUGHT: the user greets me.';
    const second = 'SECOND-THOUGHT: they ask again.';
    const third = 'THIRD-THOUGHT: once more.';
    emu.enqueue({ thinking: first, content: 'Reply one.' }, { thinking: second, content: 'Reply two.' });
    pty.write('hello\r');
    await pty.waitFor('Reply one.');
    await pty.waitFor(`Thought for ${first.length} chars (ctrl+t to show)`);
    expect(pty.screen()).not.toContain(first);

    pty.write('\x14');
    await pty.waitFor(first);
    await pty.waitFor(`Thought for ${first.length} chars (ctrl+t to hide)`);
    expect(pty.screen()).not.toContain('ctrl+t to show');

    // A later reply follows the setting.
    pty.write('again\r');
    await pty.waitFor('Reply two.');
    await pty.waitFor(second);
    expect(pty.screen()).toContain(`Thought for ${second.length} chars (ctrl+t to hide)`);
    expect(occurrences(pty.screen(), 'Reply one.')).toBe(1);

    // Back: every thinking collapsed, the texts gone from the screen and its scrollback.
    pty.write('\x14');
    await pty.waitFor(`Thought for ${second.length} chars (ctrl+t to show)`);
    const collapsed = pty.screen();
    expect(collapsed).not.toContain(first);
    expect(collapsed).not.toContain(second);
    expect(occurrences(collapsed, '(ctrl+t to show)')).toBe(2);
    expect(collapsed).not.toContain('ctrl+t to hide');
    expect(occurrences(collapsed, 'Reply one.')).toBe(1);

    emu.enqueue({ thinking: third, content: 'Reply three.' });
    pty.write('third\r');
    await pty.waitFor('Reply three.');
    await pty.waitFor(`Thought for ${third.length} chars (ctrl+t to show)`);
    expect(pty.screen()).not.toContain(third);
  });
});

describe('polish', () => {
  test('/clear resets the status line: the last reply speed is gone', async () => {
    run = await startChat();
    const { emu, pty } = run;
    emu.enqueue({ content: 'A reply with a speed.', tokensPerSecond: 200 });
    pty.write('hi\r');
    await pty.waitFor(/\d+ tokens · [\d.]+ tok\/s/);
    pty.write('/clear\r');
    await pty.waitFor('New conversation.');
    const status = pty.screen().split('\n').at(-1) ?? '';
    expect(status).toContain('llama3.2');
    expect(status).not.toMatch(/tokens|tok\/s/);
  });

  test('/summary says when, for a person: "just now", not an ISO stamp', async () => {
    run = await startChat({ models: [{ name: 'chat:latest' }], args: ['-m', 'chat', '--num-ctx', '4096'] });
    const { emu, pty } = run;
    emu.respondWith(
      compactionResponder({
        chat: (_req: unknown, n: number) => ({
          content: `${'lorem ipsum '.repeat(40).trim()}\n\nReply ${n} done.`,
        }),
      }),
    );
    for (let n = 1; n <= 4; n++) {
      pty.write(`Question ${n}?\r`);
      await pty.waitFor(`Reply ${n} done.`);
    }
    pty.write('/compact\r');
    await pty.waitFor(/Compacted \d+ messages/);
    pty.write('/summary\r');
    await pty.waitFor(/Summary of messages 1–\d+ \(by chat, just now\):/);
    expect(pty.screen()).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  });

  test('/tools wraps each description in its own column at the terminal width', async () => {
    run = await startChat({ pty: { cols: 60, rows: 40 } });
    const { pty } = run;
    pty.write('/tools\r');
    await pty.waitFor('run_command');
    const rows = pty.screen().split('\n');
    const first = rows.findIndex((row) => /^\s*ℹ? *Tools:/.test(row)) + 1;
    const list = rows.slice(first, rows.indexOf('', first));
    const toolRows = list.filter((row) => /^\s+[●○] /.test(row));
    expect(toolRows.length).toBeGreaterThanOrEqual(4);
    // The description column: where the text starts after the padded names, the same on every row.
    const columns = new Set(toolRows.map((row) => /^\s+[●○] \S+\s+/.exec(row)![0].length));
    expect(columns.size).toBe(1);
    const [column] = columns;
    const continuation = list.filter((row) => !/^\s+[●○] /.test(row));
    expect(continuation.length).toBeGreaterThan(0);
    for (const row of continuation) expect(row.search(/\S/)).toBe(column);
    for (const row of list) expect(row.length).toBeLessThanOrEqual(60);
  });
});
