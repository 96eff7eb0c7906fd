/**
 * `ollama run`'s habits in ochat, end to end: /show, /set parameter|system|default, /load, case-
 * insensitive model names and """ multi-line messages, checked on screen and on the wire.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, startChat, waitForChats } from '../support/e2e-chat.js';
import type { EmulatorModel } from '../support/emulator.js';

const MODELS: EmulatorModel[] = [
  { name: 'llama3.2:latest' },
  {
    name: 'm1:latest',
    numCtxParam: 4096,
    system: 'You are M1, a terse assistant.',
    license: 'M1 COMMUNITY LICENSE\nUse it kindly.',
    parameters: { temperature: 0.6 },
  },
];

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** Lines of the screen from the last one containing `marker` on. */
function screenAfter(run: ChatRun, marker: string): string {
  const screen = run.pty.screen();
  return screen.slice(screen.lastIndexOf(marker));
}

describe('ollama run habits', () => {
  test('/set lists what is really in force (--num-ctx included); /model M1 finds m1; /show prints what the server has', async () => {
    run = await startChat({ models: MODELS, args: ['-m', 'llama3.2', '--num-ctx', '2048'] });
    const { emu, pty } = run;
    pty.write('/set\r');
    await pty.waitFor('Settable:');
    expect(screenAfter(run, 'In force')).toMatch(/num_ctx\s+2048\s+\(--num-ctx\)/);

    pty.write('/model M1\r');
    await pty.waitFor('Switched to m1:latest');
    pty.write('/show system\r');
    await pty.waitFor('You are M1, a terse assistant.');
    pty.write('/show parameters\r');
    await pty.waitFor('Model defined parameters:');
    expect(screenAfter(run, 'Model defined parameters:')).toMatch(/num_ctx\s+4096\n.*temperature\s+0\.6/);
    pty.write('/show license\r');
    await pty.waitFor('Use it kindly.');
    pty.write('/show modelfile\r');
    await pty.waitFor('PARAMETER temperature 0.6');
    expect(screenAfter(run, '/show modelfile')).toContain('SYSTEM """You are M1, a terse assistant."""');
    pty.write('/show info\r');
    await pty.waitFor('Capabilities');
    expect(screenAfter(run, '/show info')).toMatch(/Model m1:latest\n\s+architecture\s+llama/);

    // Model defaults are listed as such; the flag still sets the window.
    pty.write('/set\r');
    await pty.waitFor(/temperature\s+0\.6\s+\(Modelfile\)/);
    expect(screenAfter(run, 'In force for m1:latest')).toMatch(/num_ctx\s+2048\s+\(--num-ctx\)/);

    pty.write('hello\r');
    await pty.waitFor('Echo: hello');
    await waitForChats(emu, 1);
    expect(emu.chats[0].body.model).toBe('m1:latest');
    expect(emu.chats[0].body.options).toEqual({ num_ctx: 2048 });
    // No system message was sent, so the server applied the Modelfile's.
    expect(emu.chats[0].keptMessages[0]).toEqual({
      role: 'system',
      content: 'You are M1, a terse assistant.',
    });
  });

  test('/set parameter, /set <option> default, /set system and /load change the next requests', async () => {
    run = await startChat({ models: MODELS });
    const { emu, pty } = run;
    pty.write('/set parameter temperature 0.1\r');
    await pty.waitFor('temperature = 0.1');
    pty.write('/set num_ctx 1024\r');
    await pty.waitFor('num_ctx = 1024');
    pty.write('one\r');
    await pty.waitFor('Echo: one');
    await waitForChats(emu, 1);
    expect(emu.chats[0].body.options).toEqual({ temperature: 0.1, num_ctx: 1024 });

    pty.write('/set temperature default\r');
    await pty.waitFor("temperature is back to the model's default.");
    pty.write('/set num_ctx default\r');
    await pty.waitFor("num_ctx is back to the model's default.");
    pty.write('/set system Answer in French.\r');
    await pty.waitFor('System prompt set.');
    pty.write('two\r');
    await pty.waitFor('Echo: two');
    await waitForChats(emu, 2);
    expect(emu.chats[1].body.options).toEqual({ num_ctx: 8192 });
    expect(emu.chats[1].body.messages[0]).toEqual({ role: 'system', content: 'Answer in French.' });

    pty.write('/load M1\r');
    await pty.waitFor('Switched to m1:latest (num_ctx 4k)');
    pty.write('/load ./saved-chat.json\r');
    // A path is a session export to import, not a model: this one does not exist.
    await pty.waitFor('Not loaded: cannot read ./saved-chat.json: no such file or folder.');
    pty.write('three\r');
    await pty.waitFor('Echo: three');
    await waitForChats(emu, 3);
    expect(emu.chats[2].body.model).toBe('m1:latest');
    expect(emu.chats[2].body.options).toEqual({ num_ctx: 4096 });
  });

  test('""" starts a multi-line message and """ ends it; the quotes are not sent', async () => {
    run = await startChat();
    const { emu, pty } = run;
    pty.write('"""\r');
    await pty.waitFor(/› """\s*\n/);
    pty.write('first line\r');
    await pty.waitFor(/first line\s*\n/);
    pty.write('  second line"""\r');
    await pty.waitFor('Echo: first line');
    await waitForChats(emu, 1);
    expect(emu.chats[0].body.messages).toEqual([{ role: 'user', content: 'first line\n  second line' }]);
  });
});
