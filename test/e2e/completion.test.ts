/** Tab completion of command arguments, end to end: models from the server, options, tools, values. */
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, startChat, waitForChats } from '../support/e2e-chat.js';
import { waitUntil } from '../support/wait-until.js';

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** Tab pressed alone: in the same read as other keys a tab is pasted text. */
const TAB = '\t';

describe('Tab completes arguments', () => {
  test('/model <Tab> lists the installed models and completes one; the switch then happens', async () => {
    run = await startChat({
      models: [{ name: 'llama3.2:latest' }, { name: 'qwen3:latest' }, { name: 'qwen2.5:7b' }],
    });
    const { emu, pty } = run;
    // The list comes from /api/tags, fetched in the background once connected, and the popup is
    // computed as keys are pressed. The emulator answers as it records the request; a key drawn
    // after that was read after the answer.
    await waitUntil('GET /api/tags', () =>
      emu.requests.some((r) => r.method === 'GET' && r.path === '/api/tags'),
    );
    pty.write('/model');
    await pty.waitFor('› /model');
    pty.write(' ');
    await pty.waitFor('qwen2.5:7b');
    expect(pty.screen()).toContain('llama3.2:latest');
    pty.write('q');
    await pty.waitFor('› /model q');
    pty.write(TAB);
    await pty.waitFor('› /model qwen');
    pty.write('3');
    await pty.waitFor('› /model qwen3');
    pty.write(TAB);
    await pty.waitFor('› /model qwen3:latest');
    pty.write('\r');
    await pty.waitFor('Switched to qwen3:latest');
    pty.write('hi\r');
    await pty.waitFor('Echo: hi');
    await waitForChats(emu, 1);
    expect(emu.chats[0].body.model).toBe('qwen3:latest');
  });

  test('/set <option>, /tools on <tool> and /think <value> complete with Tab', async () => {
    run = await startChat();
    const { emu, pty } = run;
    pty.write('/set temp');
    await pty.waitFor('sampling randomness');
    pty.write(TAB);
    await pty.waitFor('› /set temperature');
    pty.write('0.3\r');
    await pty.waitFor('temperature = 0.3');

    pty.write('/tools off read_f');
    await pty.waitFor('Read a text file');
    pty.write(TAB);
    await pty.waitFor('› /tools off read_file');
    pty.write('\r');
    await pty.waitFor('read_file disabled.');

    pty.write('/think of');
    await pty.waitFor('› /think of');
    pty.write(TAB);
    await pty.waitFor('› /think off');
    pty.write('\r');
    // The default model has no thinking: the value completed is kept for one that has (#35, item 9).
    await pty.waitFor('does not support thinking: "off" is kept for models that do.');

    pty.write('hello\r');
    await pty.waitFor('Echo: hello');
    await waitForChats(emu, 1);
    expect(emu.chats[0].body.options.temperature).toBe(0.3);
  });
});
