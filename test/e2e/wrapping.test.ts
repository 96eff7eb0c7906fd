/**
 * Rows as the terminal shows them, at several widths: a reply line of exactly the width, a long
 * notice, /help and /history each wrap with their own indent, and no row starts with a space
 * the text did not have (ochat lays out its rows itself; Ink's wrapping kept the break's space).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, startChat } from '../support/e2e-chat.js';

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** The screen's rows from the last row starting with `first` to the next blank row. */
function block(screen: string, first: string): string[] {
  const rows = screen.split('\n');
  const from = rows.findLastIndex((row) => row.startsWith(first));
  expect(from, `${first} on screen`).toBeGreaterThan(-1);
  const to = rows.findIndex((row, i) => i > from && row.trim() === '');
  return rows.slice(from, to === -1 ? undefined : to);
}

const indentOf = (row: string) => /^ */.exec(row)?.[0].length ?? 0;

describe.each([47, 64, 93])('at %i columns', (cols) => {
  test('reply, notice, /help and /history rows keep their indents; none starts with a stray space', async () => {
    run = await startChat({ pty: { cols, rows: 120 } });
    const { emu, pty } = run;
    // A line of exactly the terminal's width, then more words: the break falls on a space.
    const exact = `${'lorem '.repeat(Math.floor(cols / 6))}`.trim();
    const line = `${exact}${'x'.repeat(cols - exact.length)} ${'ipsum '.repeat(20).trim()}`;
    const rowsOk = (rows: string[], streaming = false) => {
      expect(rows[0]).toHaveLength(cols);
      // While streaming, the last row may end inside a word that has not all arrived.
      for (const row of streaming ? rows.slice(1, -1) : rows.slice(1)) expect(row).toMatch(/^ipsum/);
    };
    // Streamed slowly, so the live area (plain rows) is seen too, then the rendered reply.
    emu.enqueue({ content: `${line}\n\n${'more words '.repeat(30)}\n\nEND-REPLY`, tokensPerSecond: 60 });
    pty.write('hi\r');
    await pty.waitFor(/ipsum ipsum ipsum\s*\n/);
    rowsOk(block(pty.screen(), exact.slice(0, 20)), true);
    await pty.waitFor('END-REPLY');
    rowsOk(block(pty.screen(), exact.slice(0, 20)));

    // A long error notice: its continuation rows are indented 2, as its first row's text.
    pty.write(`/set num_ctx ${'y'.repeat(3)} ${'and more words '.repeat(8)}\r`);
    await pty.waitFor('✗ num_ctx');
    const notice = block(pty.screen(), '✗ num_ctx');
    expect(notice.length).toBeGreaterThan(1);
    for (const row of notice.slice(1)) expect(indentOf(row), row).toBe(2);

    pty.write('/help\r');
    await pty.waitFor('Shell:');
    const keys = block(pty.screen(), '  Keys:');
    expect(keys.length).toBeGreaterThan(3);
    // Every row of the keys continues under the text after `Keys:` (7 = marker column + 6).
    for (const row of keys.slice(1)) expect(indentOf(row), row).toBeGreaterThanOrEqual(7);
    const commands = block(pty.screen(), 'ℹ Commands:');
    for (const row of commands.slice(1)) expect(indentOf(row), row).toBeGreaterThanOrEqual(4);

    pty.write('/history\r');
    await pty.waitFor('[2] assistant:');
    const history = block(pty.screen(), '  [2] assistant:');
    expect(history.length).toBeGreaterThan(1);
    // A hanging indent: continuation rows under the text, not under the number.
    for (const row of history.slice(1)) expect(indentOf(row), row).toBe(6);
  });
});
