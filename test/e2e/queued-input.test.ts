/**
 * Messages typed while a reply streams: shown dimmed, in order, under the live reply, sent one by
 * one when ochat is free, and each removable (Esc on an empty prompt) until its turn comes.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, startChat, waitForChats } from '../support/e2e-chat.js';
import { deliberatePause, waitUntil } from '../support/wait-until.js';

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

const HINT = 'queued · esc on an empty prompt takes the last one back';

/** The rows of the screen from the last one containing `marker` on. */
function rowsFrom(screen: string, marker: string): string[] {
  const rows = screen.split('\n');
  return rows.slice(rows.findLastIndex((row) => row.includes(marker)));
}

describe('queued messages', () => {
  test('typed while a reply streams: dimmed, in order, under the live reply; Esc takes the newest back unsent', async () => {
    run = await startChat();
    const { emu, pty } = run;
    // A slow reply (about 4 s), so there is time to type behind it.
    emu.enqueue({ content: `${'slowly streaming words '.repeat(20)}END-OF-FIRST`, tokensPerSecond: 30 });
    pty.write('first question\r');
    await pty.waitFor('slowly streaming');
    pty.write('second message\r');
    await pty.waitFor('› second message');
    pty.write('third message\r');
    await pty.waitFor('› third message');

    // Both wait under the live reply, oldest first, then the hint, then the prompt.
    const below = rowsFrom(pty.screen(), 'slowly streaming');
    const second = below.findIndex((row) => row.startsWith('› second message'));
    expect(second).toBeGreaterThan(0);
    expect(below[second + 1]).toMatch(/^› third message/);
    expect(below[second + 2]).toContain(HINT);
    expect(pty.raw()).toMatch(/\x1b\[2m› second message/);
    expect(pty.screen()).not.toContain('END-OF-FIRST');

    // Esc on the empty prompt: the newest comes back into the prompt (the row above the status
    // line), out of the queue.
    const promptRow = () => pty.screen().split('\n').at(-2) ?? '';
    pty.write('\x1b');
    await waitUntil('the third message back in the prompt', () => /^› third message/.test(promptRow()), {
      describe: () => pty.screen(),
    });
    const after = rowsFrom(pty.screen(), 'slowly streaming');
    expect(after.filter((row) => row.startsWith('› third message'))).toHaveLength(1);
    expect(after.some((row) => row.startsWith('› second message'))).toBe(true);
    // Esc again clears the prompt: the third message is gone without being sent.
    await deliberatePause(100, 'two separate presses of Esc: in one burst they read as one key sequence');
    pty.write('\x1b');
    await waitUntil('an empty prompt', () => promptRow().includes('Type a message'), {
      describe: () => pty.screen(),
    });

    await pty.waitFor('Echo: second message');
    await waitForChats(emu, 2);
    expect(emu.chats.map((c) => c.body.messages.at(-1).content)).toEqual([
      'first question',
      'second message',
    ]);
    expect(pty.screen()).not.toContain(HINT);
    expect(pty.screen()).not.toContain('third message');
  });
});
