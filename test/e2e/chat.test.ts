/**
 * The interactive chat end to end: the built CLI in a PTY against the Ollama emulator. Each test
 * checks both what the user sees and what ochat sent to the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, exitCode, PROMPT_PLACEHOLDER, startChat, waitForChats } from '../support/e2e-chat.js';
import { countTokens } from '../support/emulator.js';

const TWO_MODELS = [
  { name: 'llama3.2:latest', numCtxParam: 6144 },
  { name: 'qwen3:latest', family: 'qwen3', capabilities: ['completion', 'thinking'] },
];

let run: ChatRun | undefined;
const homes: string[] = [];

afterEach(async () => {
  await run?.close();
  run = undefined;
  for (const home of homes.splice(0))
    rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

/** The last message of a recorded request. */
// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON.
function lastMessage(body: any) {
  return body.messages.at(-1);
}

describe('a chat', () => {
  test('starts with a header (model, host, num_ctx) and a prompt; a message streams a reply and fills the meter', async () => {
    run = await startChat({ models: TWO_MODELS });
    const { emu, pty } = run;
    expect(pty.screen()).toContain(`ochat · llama3.2 · ${emu.url} · num_ctx 6144`);
    expect(pty.screen()).toContain(PROMPT_PLACEHOLDER);

    const reply = 'Hello there, friend. How can I help?';
    emu.enqueue({ content: reply });
    pty.write('hi there\r');
    await pty.waitFor('How can I help?');
    await waitForChats(emu, 1);
    const [chat] = emu.chats;
    expect(chat.body.stream).toBe(true);
    expect(chat.body.model).toBe('llama3.2');
    expect(chat.body.options.num_ctx).toBe(6144);
    expect(chat.body.messages).toEqual([{ role: 'user', content: 'hi there' }]);

    // The meter is the server's prompt_eval_count + eval_count of the last reply.
    const used = chat.promptEvalCount + countTokens(reply);
    await pty.waitFor(`llama3.2 · ${used}/6.1k (0%)`);
    expect(pty.screen()).toContain('› hi there');
  });

  test('ochat "question" starts the chat with that first message', async () => {
    run = await startChat({ args: ['-m', 'llama3.2', 'why is', 'the sky blue?'], readyText: 'Echo: why is' });
    const { emu, pty } = run;
    await waitForChats(emu, 1);
    expect(emu.chats[0].body.messages).toEqual([{ role: 'user', content: 'why is the sky blue?' }]);
    expect(pty.screen()).toContain('› why is the sky blue?');
    pty.write('and then?\r');
    await pty.waitFor('Echo: and then?');
  });

  test('Ctrl+C mid-stream keeps the partial reply, marked [interrupted], and sends it with the next message', async () => {
    run = await startChat();
    const { emu, pty } = run;
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    emu.enqueue({ content: words, tokensPerSecond: 40 }, { content: 'Continuing.' });
    pty.write('tell me a long story\r');
    await pty.waitFor('word3 ');
    pty.write('\x03');
    await pty.waitFor('[interrupted]');
    await pty.waitFor('Reply interrupted; the partial reply is kept.');
    expect(pty.screen()).toContain('word0 word1 word2');
    expect(pty.screen()).not.toContain('word119');

    pty.write('go on\r');
    await pty.waitFor('Continuing.');
    await waitForChats(emu, 2);
    const messages = emu.chats[1].body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const partial = messages[1].content;
    expect(partial.startsWith('word0 word1 word2 word3')).toBe(true);
    expect(partial.length).toBeLessThan(words.length);
    expect(messages[2].content).toBe('go on');
  });

  test('/model lists the installed models, and /model <name> switches the next request', async () => {
    run = await startChat({ models: TWO_MODELS });
    const { emu, pty } = run;
    pty.write('/model\r');
    await pty.waitFor('Installed models');
    expect(pty.screen()).toMatch(/● llama3\.2:latest/);
    expect(pty.screen()).toContain('qwen3:latest');

    pty.write('/model qwen3\r');
    await pty.waitFor('Switched to qwen3');
    await pty.waitFor(/qwen3 · \d+\/8k/);
    pty.write('which model?\r');
    await pty.waitFor('Echo: which model?');
    await waitForChats(emu, 1);
    expect(emu.chats[0].body.model).toBe('qwen3');
    expect(emu.chats[0].body.options.num_ctx).toBe(8192);
  });

  test('/set temperature reaches the options of the next request; a typo is a one-line error, not a crash', async () => {
    run = await startChat();
    const { emu, pty } = run;
    pty.write('/set temprature 0.2\r');
    await pty.waitFor('Usage: /set <option> <value>');
    // One row: the error, its suggestion and the usage.
    const errors = pty
      .screen()
      .split('\n')
      .filter((line) => line.includes('✗'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/temprature.*did you mean "temperature".*Usage: \/set <option> <value>/);

    pty.write('/set temperature 0.2\r');
    await pty.waitFor('temperature = 0.2');
    pty.write('still alive?\r');
    await pty.waitFor('Echo: still alive?');
    await waitForChats(emu, 1);
    expect(emu.chats).toHaveLength(1);
    expect(emu.chats[0].body.options).toEqual({ temperature: 0.2, num_ctx: 8192 });
  });

  test('a trailing backslash + Enter and a bracketed paste each insert a newline into one message', async () => {
    run = await startChat();
    const { emu, pty } = run;
    pty.write('first line\\\r');
    await pty.waitFor(/› first line\s*\n\s+/);
    pty.write('second line\r');
    await pty.waitFor('Echo: first line');
    await waitForChats(emu, 1);
    expect(lastMessage(emu.chats[0].body)).toEqual({ role: 'user', content: 'first line\nsecond line' });

    pty.write('\x1b[200~a\rb\x1b[201~');
    await pty.waitFor(/› a\s*\n\s+b/);
    expect(emu.chats).toHaveLength(1); // the pasted line break did not send
    pty.write('\r');
    await waitForChats(emu, 2);
    expect(lastMessage(emu.chats[1].body)).toEqual({ role: 'user', content: 'a\nb' });
  });

  test('two lines typed ahead in one read are two messages; text pasted without brackets is one', async () => {
    run = await startChat();
    const { emu, pty } = run;
    // One write is one read for the app: keys typed ahead (over SSH, on a slow machine).
    pty.write('hello one\rhello two\r');
    await pty.waitFor('Echo: hello two');
    await waitForChats(emu, 2);
    expect(emu.chats).toHaveLength(2);
    expect(lastMessage(emu.chats[0].body)).toEqual({ role: 'user', content: 'hello one' });
    expect(emu.chats[1].body.messages.map((m: { content: string }) => m.content)).toEqual([
      'hello one',
      'Echo: hello one',
      'hello two',
    ]);

    // A terminal without bracketed paste: lines whose last one has no Enter after it were pasted.
    pty.write('pasted a\rpasted b');
    await pty.waitFor(/› pasted a\s*\n\s+pasted b/);
    expect(emu.chats).toHaveLength(2);
    pty.write('\r');
    await waitForChats(emu, 3);
    expect(lastMessage(emu.chats[2].body)).toEqual({ role: 'user', content: 'pasted a\npasted b' });
  });

  test('once the terminal brackets pastes, an Enter outside the markers always submits', async () => {
    run = await startChat();
    const { emu, pty } = run;
    pty.write('\x1b[200~x\ry\x1b[201~\r');
    await waitForChats(emu, 1);
    expect(lastMessage(emu.chats[0].body)).toEqual({ role: 'user', content: 'x\ny' });
    await pty.waitFor(/Echo: x\s+y/);

    // Typed ahead, the read ending mid-word: the first line is already a message of its own.
    pty.write('first\rsec');
    await waitForChats(emu, 2);
    expect(lastMessage(emu.chats[1].body)).toEqual({ role: 'user', content: 'first' });
    await pty.waitFor('› sec');
    pty.write('ond\r');
    await waitForChats(emu, 3);
    expect(lastMessage(emu.chats[2].body)).toEqual({ role: 'user', content: 'second' });
  });

  test('a terminal that says it brackets pastes (DECRQM) gets no unbracketed-paste guessing; its answer is never typed', async () => {
    run = await startChat({ pty: { answerQueries: true } });
    const { emu, pty } = run;
    expect(pty.raw()).toContain('\x1b[?2004$p');
    // Without the answer this read would be taken as a paste of two lines (see the test above).
    pty.write('typed a\rtyped b');
    await waitForChats(emu, 1);
    expect(lastMessage(emu.chats[0].body)).toEqual({ role: 'user', content: 'typed a' });
    await pty.waitFor('› typed b');
    expect(pty.screen()).not.toMatch(/2004|\$y/);
  });

  test('Up recalls earlier input, also after a restart with the same home', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ochat-e2e-history-'));
    homes.push(home);
    run = await startChat({ pty: { home } });
    let { pty } = run;
    pty.write('remember this line\r');
    await pty.waitFor('Echo: remember this line');
    pty.write('\x1b[A');
    await pty.waitFor(/› remember this line\s*\n.*llama3\.2 ·/);
    pty.write('\x15'); // Ctrl+U clears the recalled line
    await pty.waitFor(PROMPT_PLACEHOLDER);
    pty.write('\x04');
    expect(await exitCode(pty)).toBe(0);
    await run.close();

    run = await startChat({ pty: { home } });
    ({ pty } = run);
    expect(pty.screen()).not.toContain('remember this line');
    pty.write('\x1b[A');
    await pty.waitFor('› remember this line');
    pty.write('\r');
    await waitForChats(run.emu, 1);
    expect(lastMessage(run.emu.chats[0].body).content).toBe('remember this line');
  });

  test('Ctrl+D on an empty prompt exits with code 0', async () => {
    run = await startChat();
    run.pty.write('\x04');
    expect(await exitCode(run.pty)).toBe(0);
    // Bracketed paste was switched on at start and is switched off again for the shell.
    expect(run.pty.raw()).toContain('\x1b[?2004h');
    expect(run.pty.raw().lastIndexOf('\x1b[?2004l')).toBeGreaterThan(
      run.pty.raw().lastIndexOf('\x1b[?2004h'),
    );
  });

  test('Ctrl+C on an empty prompt asks for a second press, which exits', async () => {
    run = await startChat();
    const { pty } = run;
    pty.write('\x03');
    await pty.waitFor('Press Ctrl+C again to quit');
    pty.write('\x03');
    expect(await exitCode(pty)).toBe(0);
  });

  test('terminal control sequences in model output are neutralized', async () => {
    run = await startChat();
    const { emu, pty } = run;
    const hostile = 'Safe start \x1b]0;pwned\x07 middle \x1b[2J\x1b[31mred\x1b[0m end marker';
    // Slow enough that part of the reply is drawn live, in pieces that split the sequences.
    emu.enqueue({ content: hostile, tokensPerSecond: 200 });
    pty.write('say something nasty\r');
    await pty.waitFor('end marker');
    await pty.waitFor(/tok\/s/);
    const raw = pty.raw();
    expect(raw).not.toContain('\x1b]0;pwned');
    expect(raw).not.toContain('pwned');
    expect(raw).not.toContain('\x1b[2J');
    // The model's own colour code is gone; ochat's styling (colours are on) may surround the text.
    expect(raw).not.toContain('\x1b[31mred');
    expect(pty.screen()).toMatch(/Safe start\s+middle\s+red end marker/);
    expect(pty.screen()).toContain('› say something nasty');
  });

  test("colours are on, as in a user's terminal: a language-tagged code fence is highlighted", async () => {
    run = await startChat();
    const { emu, pty } = run;
    emu.enqueue({ content: 'Here:\n\n```js\nconst answer = 42;\n```\n\nDone highlighting.' });
    pty.write('show code\r');
    await pty.waitFor('Done highlighting.');
    expect(pty.screen()).toContain('const answer = 42;');
    // The highlighter styles the keyword on its own (it only runs with colours on).
    expect(pty.raw()).toMatch(/\x1b\[[0-9;]*mconst\x1b\[[0-9;]*m/);
    expect(pty.screen()).not.toMatch(/error|not a function/i);
  });

  test('a thinking model: the thinking is shown, and not sent back with the next request', async () => {
    run = await startChat({ models: TWO_MODELS, args: ['-m', 'qwen3'] });
    const { emu, pty } = run;
    const thinking = 'The user greets me; I should answer briefly.';
    emu.enqueue({ thinking, content: 'Hi! Nice to meet you.' });
    pty.write('hello\r');
    await pty.waitFor('Nice to meet you.');
    await pty.waitFor(`Thought for ${thinking.length} chars`);
    pty.write('\x14'); // Ctrl+T expands it
    await pty.waitFor(thinking);

    pty.write('and now?\r');
    await pty.waitFor('Echo: and now?');
    await waitForChats(emu, 2);
    const body = emu.chats[1].body;
    expect(body.messages[1]).toEqual({ role: 'assistant', content: 'Hi! Nice to meet you.' });
    expect(JSON.stringify(body)).not.toContain('greets me');
  });

  test('an HTTP error before the first byte is shown; Enter on the empty prompt retries the turn', async () => {
    run = await startChat();
    const { emu, pty } = run;
    emu.enqueue({ fault: { kind: 'http', status: 500, error: 'llama runner process has terminated' } });
    pty.write('first try\r');
    await pty.waitFor('llama runner process has terminated');
    await pty.waitFor('Press Enter on an empty prompt to retry');
    await pty.waitFor(PROMPT_PLACEHOLDER);
    pty.write('\r');
    await pty.waitFor('Echo: first try');
    await waitForChats(emu, 2);
    expect(emu.chats[1].body.messages).toEqual([{ role: 'user', content: 'first try' }]);
    expect(emu.chats).toHaveLength(2);
  });

  test('an error line mid-stream keeps the partial reply, shows the error, and the chat goes on', async () => {
    run = await startChat();
    const { emu, pty } = run;
    emu.enqueue({
      content: 'Partial answer that will break off here and never finish',
      fault: {
        kind: 'error-line',
        afterChunks: 4,
        error: 'an error was encountered while running the model',
      },
    });
    pty.write('break please\r');
    await pty.waitFor('an error was encountered while running the model');
    await pty.waitFor('[interrupted]');
    // The fault comes after four 4-character chunks.
    expect(pty.screen()).toMatch(/Partial answer t\s*\n\[interrupted\]/);
    expect(pty.screen()).not.toContain('never finish');

    pty.write('try again\r');
    await pty.waitFor('Echo: try again');
    await waitForChats(emu, 2);
    const messages = emu.chats[1].body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1].content).toBe('Partial answer t');
  });
});
