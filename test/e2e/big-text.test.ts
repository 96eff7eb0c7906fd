/**
 * Large text in and out of the built CLI: a big paste collapses into a chip and is sent in full;
 * a huge reply is shown without hanging the app.
 */

import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { SEEN_WORK_MS } from '../../src/chat/state/abort-slot.js';
import { MAX_REPLY_CHARS } from '../../src/ollama/reply-accumulator.js';
import { type ChatRun, startChat, waitForChats } from '../support/e2e-chat.js';
import { wrapped } from '../support/pty-session.js';
import { deliberatePause } from '../support/wait-until.js';

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

  test('a paste over 8 M characters is not taken, with a word; nothing is sent and the next paste is', async () => {
    run = await startChat();
    const { emu, pty } = run;
    const line = `${'y'.repeat(1023)}\r`;
    await pty.writeInPieces(`\x1b[200~${line.repeat(9 * 1024)}\x1b[201~`, 256 * 1024);
    await pty.waitFor(wrapped('paste of 9 M characters not taken: the most is 8 M'), 60_000);
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pty.pid}/status`, 'utf8'))?.[1]) / 1024;
    console.log(`a 9 M-character paste refused at ${Math.round(rss)} MB RSS`);
    expect(pty.screen()).not.toContain('[pasted');
    await pty.writeInPieces(`\x1b[200~${logLines(3).join('\r')}\x1b[201~`);
    pty.write(' ok?\r');
    await waitForChats(emu, 1);
    expect(lastMessage(emu.chats[0].body).content).toBe(`${logLines(3).join('\n')} ok?`);
  }, 120_000);

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

/** One paragraph of `chars` characters, no line break, with a marker at its start and its end. */
function hugeParagraph(chars: number): string {
  const words = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27));
  return `HEAD-OF-REPLY ${words.slice(0, chars - 30)} END-OF-REPLY`;
}

describe('a huge reply', () => {
  test('10 MB in one paragraph: cut at the reply cap with a note, its head shown, the kept part sent back, the app answers after it', async () => {
    // A window the kept part fits in, so the next request carries it as is.
    run = await startChat({
      models: [{ name: 'llama3.2:latest', trainedContext: 4_194_304 }],
      args: ['-m', 'llama3.2', '--num-ctx', '4194304'],
    });
    const { emu, pty } = run;
    const reply = hugeParagraph(10_000_000);
    emu.enqueue({ content: reply, pieceChars: 65_536 });
    pty.write('huge\r');
    await pty.waitFor('The reply grew past 4 M characters', 60_000);
    expect(pty.screen()).toContain('HEAD-OF-REPLY');
    expect(pty.screen()).not.toContain('END-OF-REPLY');
    pty.write('after\r');
    await pty.waitFor('Echo: after', 15_000);
    await waitForChats(emu, 2);
    // The conversation keeps what the cap kept: the next request carries it.
    const sent = emu.chats[1].body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(sent.content).toBe(reply.slice(0, MAX_REPLY_CHARS));
  }, 120_000);

  test('Ctrl+C pressed as a runaway reply is cut never counts toward quitting: two presses leave ochat running', async () => {
    run = await startChat({
      models: [{ name: 'llama3.2:latest', trainedContext: 4_194_304 }],
      args: ['-m', 'llama3.2', '--num-ctx', '4194304'],
    });
    const { emu, pty } = run;
    // The pieces up to the cap, ending in a marker; the next piece is held until the keys are due.
    const pieceChars = 65_536;
    const marker = ' LAST-KEPT-PIECE';
    const reply = hugeParagraph(10_000_000);
    const content = `${reply.slice(0, MAX_REPLY_CHARS - marker.length)}${marker}${reply.slice(MAX_REPLY_CHARS)}`;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    emu.enqueue({
      content,
      pieceChars,
      fault: { kind: 'pause', afterChunks: MAX_REPLY_CHARS / pieceChars, until: released },
    });
    pty.write('huge\r');
    await pty.waitFor('LAST-KEPT-PIECE', 60_000);
    // A runaway reply streams for minutes before the cut; work shorter than a second was not seen
    // running, and a Ctrl+C after it means what it says (AbortSlot's SEEN_WORK_MS).
    await deliberatePause(
      SEEN_WORK_MS,
      'the reply has streamed a while, as a runaway one has, when it is cut',
    );
    const releasedAt = Date.now();
    release();
    // Pressed while the cut is processed (the screen still says streaming…): read only after it,
    // they count as cancelling the reply however long that took.
    await deliberatePause(100, 'the piece past the cap is read, and the cut begun, before the keys come');
    pty.write('\x03');
    pty.write('\x03');
    await pty.waitFor('The reply grew past 4 M characters', 30_000, { settle: false });
    const cutMs = Date.now() - releasedAt;
    console.log(`runaway reply: the cut was on screen ${cutMs} ms after the piece past the cap`);
    // Ink wrapped the two 64 kB ends shown at ~11 µs a character: the app froze 3.5 s here.
    expect(cutMs).toBeLessThan(2000);
    pty.write('after\r');
    await pty.waitFor('Echo: after', 15_000);
    expect(pty.screen()).not.toContain('Press Ctrl+C again to quit');
    // The keys came after the cut, not in the middle of the stream.
    expect(pty.screen()).not.toContain('Reply interrupted');
  }, 120_000);

  test('Ctrl+C stops a huge reply while it streams, and the next message is answered', async () => {
    run = await startChat({ args: ['-m', 'llama3.2', '--num-ctx', '131072'] });
    const { emu, pty } = run;
    // 64 kB pieces, 20 a second: 10 MB would take 8 s.
    emu.enqueue({ content: hugeParagraph(10_000_000), pieceChars: 65_536, tokensPerSecond: 20 });
    pty.write('huge\r');
    await pty.waitFor('lorem ipsum', 10_000);
    await deliberatePause(1000, 'Ctrl+C in the middle of the stream, a second into its 8 s');
    pty.write('\x03');
    await pty.waitFor('[interrupted]', 5_000);
    expect(pty.screen()).not.toContain('END-OF-REPLY');
    pty.write('after\r');
    await pty.waitFor('Echo: after', 15_000);
  }, 60_000);
});
