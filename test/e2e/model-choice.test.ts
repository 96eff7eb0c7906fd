/**
 * The first start in a fresh home with several models installed and none named: the chat offers
 * the installed models as a choice (↑/↓, Enter) instead of an error and an Enter that changes nothing.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, startChat, waitForChats } from '../support/e2e-chat.js';

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

const MODELS = [
  { name: 'llama3.2:latest', parameterSize: '3.2B' },
  { name: 'qwen3:latest', family: 'qwen3' },
];
const QUESTION = 'Which model? Several are installed';

describe('several models installed, none named', () => {
  test('the installed models are offered: ↓ and Enter picks one, and the chat goes on with it', async () => {
    run = await startChat({ models: MODELS, args: [], readyText: QUESTION });
    const { emu, pty } = run;
    await pty.waitFor('› llama3.2:latest');
    expect(pty.screen()).toContain('  qwen3:latest');
    expect(pty.screen().split('\n').at(-1)).toContain('waiting for your choice');
    expect(pty.screen()).not.toContain('Press Enter to try again');
    expect(pty.screen()).not.toContain('Choose a model with -m');

    pty.write('\x1b[B');
    await pty.waitFor('› qwen3:latest');
    pty.write('\r');
    // Named as -m or the config would name it.
    await pty.waitFor(`ochat · qwen3 · ${emu.url} · num_ctx`);
    expect(pty.screen().split('\n').at(-1)).toMatch(/^qwen3 · /);
    expect(pty.screen()).not.toContain(QUESTION);
    pty.write('hello\r');
    await pty.waitFor('Echo: hello');
    await waitForChats(emu, 1);
    expect(emu.chats[0].body.model).toBe('qwen3');
  });

  test('Esc picks none and says that /model chooses one here; /model <name> then does', async () => {
    run = await startChat({ models: MODELS, args: [], readyText: QUESTION });
    const { emu, pty } = run;
    await pty.waitFor('› llama3.2:latest');
    await pty.answer('\x1b');
    await pty.waitFor('No model chosen: /model <name> chooses one here');
    expect(pty.screen()).not.toContain('Press Enter to try again');
    pty.write('/model qwen3\r');
    await pty.waitFor('Switched to qwen3');
    pty.write('hello\r');
    await pty.waitFor('Echo: hello');
    await waitForChats(emu, 1);
    expect(emu.chats[0].body.model).toMatch(/^qwen3(:latest)?$/);
  });
});
