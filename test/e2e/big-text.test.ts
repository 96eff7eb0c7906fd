/**
 * Large text in and out of the built CLI: a big paste collapses into a chip and is sent in full;
 * a huge reply is shown without hanging the app.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, startChat, waitForChats } from '../support/e2e-chat.js';

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** The last message of a recorded request. */
// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON.
function lastMessage(body: any) {
  return body.messages.at(-1);
}

/** `count` numbered log lines. */
function logLines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `2026-12-03 INFO worker ${i + 1} finished`);
}

describe('a large paste', () => {
  test('shows as one chip, is sent in full, and comes back from history as the chip', async () => {
    // A window the ~15k-token message fits in, so it is sent without the oversized-message question.
    run = await startChat({ args: ['-m', 'llama3.2', '--num-ctx', '65536'] });
    const { emu, pty } = run;
    const lines = logLines(1523);
    pty.write('look: ');
    await pty.writeInPieces(`\x1b[200~${lines.join('\r')}\x1b[201~`);
    await pty.waitFor('› look: [pasted 1,523 lines]');
    expect(pty.screen()).toContain('ctrl+o to expand the paste');
    expect(pty.screen()).not.toContain('worker 1523 finished');
    pty.write(' why?\r');
    await waitForChats(emu, 1);
    expect(lastMessage(emu.chats[0].body)).toEqual({
      role: 'user',
      content: `look: ${lines.join('\n')} why?`,
    });
    // The sent message shows its first lines and a count, not 1,523 lines of scrollback.
    await pty.waitFor('… 1,513 more lines (sent in full)');
    expect(pty.screen()).not.toContain('worker 12 finished');

    pty.write('\x1b[A');
    await pty.waitFor('› look: [pasted 1,523 lines] why?');
    pty.write('\r');
    await waitForChats(emu, 2);
    expect(lastMessage(emu.chats[1].body).content).toBe(`look: ${lines.join('\n')} why?`);
  });

  test('Ctrl+O puts the pasted text in the prompt for editing; Backspace removes a chip whole', async () => {
    run = await startChat();
    const { emu, pty } = run;
    const lines = logLines(12);
    pty.write(`\x1b[200~${lines.join('\r')}\x1b[201~`);
    await pty.waitFor('› [pasted 12 lines]');
    pty.write('\x7f');
    await pty.waitFor('Type a message');
    pty.write(`\x1b[200~${lines.join('\r')}\x1b[201~`);
    await pty.waitFor('› [pasted 12 lines]');
    pty.write('\x0f'); // Ctrl+O
    await pty.waitFor('worker 12 finished');
    expect(pty.screen()).not.toContain('[pasted 12 lines]');
    pty.write('!\r');
    await waitForChats(emu, 1);
    expect(lastMessage(emu.chats[0].body).content).toBe(`${lines.join('\n')}!`);
  });
});
