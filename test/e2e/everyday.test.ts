/**
 * What a new user found confusing in a long session (issue 35), end to end: the built CLI in a
 * PTY against the emulator, colours on.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { isSummarizerRequest } from '../support/compaction-summarizer.js';
import { type ChatRun, exitCode, startChat } from '../support/e2e-chat.js';
import { deliberatePause } from '../support/wait-until.js';

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('thinking on a model without it', () => {
  test('/think on and /set think say once that the model has none, with no "✓ Thinking: on" after it', async () => {
    run = await startChat();
    const { pty } = run;
    pty.write('/think on\r');
    await pty.waitFor('llama3.2 does not support thinking: "on" is kept for models that do.');
    pty.write('/set think\r');
    await pty.waitFor(/does not support thinking[^\n]*\n[\s\S]*does not support thinking/);
    expect(pty.screen()).not.toContain('Thinking: on');
    expect(occurrences(pty.screen(), 'does not support thinking')).toBe(2);
  });
});

describe('a compaction cancelled before a message goes', () => {
  test('is said once, below the message it was for', async () => {
    run = await startChat({ models: [{ name: 'chat:latest' }], args: ['-m', 'chat', '--num-ctx', '4096'] });
    const { emu, pty } = run;
    let chats = 0;
    emu.respondWith(async (req) => {
      // The summarizer takes its time, as a real model does: Ctrl+C comes while it works.
      if (isSummarizerRequest(req)) {
        await deliberatePause(5000, 'the summarizer takes its time, as a real model does');
        return { content: 'Summary.' };
      }
      chats += 1;
      return { content: `${'lorem ipsum '.repeat(160).trim()}\n\nReply ${chats} done.` };
    });
    for (let n = 1; n <= 3; n++) {
      pty.write(`Question ${n}?\r`);
      await pty.waitFor(`Reply ${n} done.`);
    }
    // A long message: the request carrying it would not leave the reserve free, so compaction runs first.
    await pty.writeInPieces(`BIG-MESSAGE ${'word '.repeat(1300)}\r`);
    await pty.waitFor('compacting');
    pty.write('\x03');
    await pty.waitFor('Press Enter on an empty prompt to send it');
    const screen = pty.screen();
    expect(occurrences(screen, 'ompaction cancelled')).toBe(1);
    expect(screen.indexOf('BIG-MESSAGE')).toBeLessThan(screen.indexOf('Compaction cancelled'));
  });
});

describe('a model loading', () => {
  test('the live area says loading m1…, not thinking…; the warm-up says loaded in N s when it ends', async () => {
    run = await startChat({ models: [{ name: 'm1:latest' }], loadDelayMs: 2500, args: ['-m', 'm1'] });
    const { pty } = run;
    await pty.waitFor(/loading m1… [012] s/, 5000);
    // Nothing sent yet: the warm-up's load, said in the status line when it ends.
    await pty.waitFor(/loaded in 2\.\d s/, 8000);
    expect(pty.screen()).not.toContain('thinking…');
    pty.write('/unload\r');
    await pty.waitFor('Unloaded m1', 8000);
    pty.write('hello\r');
    await pty.waitFor(/loading m1…\n/, 5000);
    expect(pty.screen()).not.toContain('thinking…');
    await pty.waitFor('Echo: hello', 8000);
    await pty.waitFor(/loaded in 2\.\d s · \d+ tokens/);
  }, 30_000);
});

describe('the status line', () => {
  test('after an interrupted reply it no longer shows the previous reply speed', async () => {
    run = await startChat();
    const { emu, pty } = run;
    emu.enqueue(
      { content: 'A reply with a speed.', tokensPerSecond: 200 },
      { content: `SLOW ${'word '.repeat(400)}`, tokensPerSecond: 20 },
    );
    pty.write('hi\r');
    await pty.waitFor(/\d+ tokens · [\d.]+ tok\/s/);
    pty.write('again\r');
    await pty.waitFor('SLOW');
    pty.write('\x03');
    await pty.waitFor('[interrupted]');
    const status = pty.screen().split('\n').at(-1) ?? '';
    expect(status).toContain('llama3.2');
    expect(status).not.toMatch(/tok\/s/);
  });
});

describe('/ps', () => {
  test('says how long a model stays as ollama ps does: months, not thousands of hours; Forever for -1', async () => {
    run = await startChat({ pty: { cols: 120 } });
    const { pty } = run;
    pty.write('/set keep_alive 8760h\r');
    await pty.waitFor('keep_alive');
    pty.write('hi\r');
    await pty.waitFor('Echo: hi');
    pty.write('/ps\r');
    await pty.waitFor(/llama3\.2:latest .* 12 months from now/);
    expect(pty.screen()).not.toMatch(/\d{3,} hours from now/);
    pty.write('/set keep_alive -1\r');
    await pty.waitFor(/keep_alive = -1/);
    pty.write('again\r');
    await pty.waitFor('Echo: again');
    pty.write('/ps\r');
    await pty.waitFor(/llama3\.2:latest .* Forever/);
  });
});

describe('quitting', () => {
  test('leaves no status line behind: the shell prompt follows the conversation', async () => {
    run = await startChat();
    const { emu, pty } = run;
    emu.enqueue({ content: 'A reply.', tokensPerSecond: 200 });
    pty.write('hi\r');
    await pty.waitFor(/llama3\.2 · \d+\/8k/);
    await pty.waitFor('tok/s');
    pty.write('/quit\r');
    expect(await exitCode(pty)).toBe(0);
    const screen = pty.screen();
    expect(screen).toContain('A reply.');
    expect(screen).not.toMatch(/llama3\.2 · \d+\/8k/);
    expect(screen).not.toContain('tok/s');
  });
});
