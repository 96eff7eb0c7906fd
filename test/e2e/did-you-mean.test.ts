/**
 * Mistakes said in words, with the likely meaning: model names and @paths get a did-you-mean as
 * commands and flags do; a session not found names /sessions inside the chat; a malformed --host
 * says so; a file /load cannot read says why without an errno code.
 */
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, startChat } from '../support/e2e-chat.js';
import { runOchat } from '../support/e2e-process.js';
import { startEmulator } from '../support/emulator.js';

const MODELS = [{ name: 'm1:latest' }, { name: 'llama3.2:latest' }];

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('on the command line', () => {
  test('-m m11 suggests the installed m1', async () => {
    const emu = await startEmulator({ models: MODELS });
    try {
      const result = await runOchat(['-m', 'm11', '-p', 'hi'], { env: { OLLAMA_HOST: emu.url } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("Model 'm11' is not installed. Did you mean 'm1:latest'?");
    } finally {
      await emu.close();
    }
  });

  test('--host htp:/foo says the URL is malformed, not that a port is invalid', async () => {
    const result = await runOchat(['--host', 'htp:/foo', '-p', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "Invalid Ollama host 'htp:/foo': malformed URL (a URL starts with http:// or https://)",
    );
    expect(result.stderr).not.toContain('is not a valid port');
  });
});

describe('in the chat', () => {
  test('/model, @path, /resume and /load say what went wrong in words, with the likely meaning', async () => {
    run = await startChat({ models: MODELS, args: ['-m', 'm1'], pty: { cols: 120 } });
    const { pty } = run;
    writeFileSync(join(pty.home, 'notes.md'), 'hello\n');

    pty.write('/model m11\r');
    // Offered the download first; declined, the nearest installed name is suggested.
    await pty.waitFor('Pull m11? (y/n)');
    await pty.answer('n');
    await pty.waitFor("Model 'm11' is not installed. Did you mean 'm1:latest'?");

    pty.write('read @notse.md\r');
    await pty.waitFor(`No file notse.md in ${pty.home}. Did you mean @notes.md?`);

    pty.write('/resume nosuch\r');
    await pty.waitFor('No session "nosuch". /sessions lists them.');
    expect(pty.screen()).not.toContain('--list-sessions');

    pty.write('/load ./missing.json\r');
    await pty.waitFor('Not loaded: cannot read ./missing.json: no such file or folder.');
    expect(pty.screen()).not.toContain('ENOENT');
  });

  test('/load of a named pipe or a device named *.json refuses it by name; the chat goes on', async () => {
    run = await startChat({ models: MODELS, args: ['-m', 'm1'], pty: { cols: 120 } });
    const { pty } = run;
    // Nobody writes the pipe: reading it would wait forever; /dev/zero would never end.
    execFileSync('mkfifo', [join(pty.home, 'pipe.json')]);
    symlinkSync('/dev/zero', join(pty.home, 'zero.json'));

    pty.write('/load ./pipe.json\r');
    await pty.waitFor('Not loaded: cannot read ./pipe.json: it is a named pipe (FIFO), not a file.');
    pty.write('/load zero.json\r');
    await pty.waitFor('Not loaded: cannot read zero.json: it is a device, not a file.');
    pty.write('still here\r');
    await pty.waitFor('Echo: still here');
  });

  test("a path quoted as a file manager's drag and drop gives it, 'my chat.json', is a path to /save and /load, not a model to pull", async () => {
    run = await startChat({ models: MODELS, args: ['-m', 'm1'], pty: { cols: 120 } });
    const { pty } = run;
    pty.write('remember ZX-42\r');
    await pty.waitFor('Echo: remember ZX-42');
    const file = join(pty.home, 'my chat.json');
    pty.write(`/save '${file}'\r`);
    await pty.waitFor(`Saved to ${file}.`);
    // It was '"my chat.json"' is not installed, and a Pull "my chat.json"? (y/n) question.
    pty.write('/load "my chat.json"\r');
    await pty.waitFor(/Imported my chat\.json as session/);
    expect(pty.screen()).not.toContain('Pull');
  });
});
