/**
 * TERM=dumb (no cursor addressing: Emacs' shell, some editor and CI consoles): ochat runs a plain
 * line mode, as `ollama run` does — the terminal's own line editing, replies printed as they
 * stream, and not one escape sequence (no cursor movement, no erasing, no colour).
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { exitCode, waitForChats } from '../support/e2e-chat.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { FAULT_SERVER, mcpConfig } from '../support/mcp-servers.js';
import { type PtySession, spawnOchat } from '../support/pty-session.js';
import { deliberatePause } from '../support/wait-until.js';

let emu: Emulator | undefined;
let pty: PtySession | undefined;

afterEach(async () => {
  await pty?.dispose();
  pty = undefined;
  await emu?.close();
  emu = undefined;
});

const PROMPT = '>>> ';

async function startDumb(
  options: {
    models?: { name: string; family?: string; capabilities?: string[] }[];
    args?: string[];
    cwd?: string;
  } = {},
) {
  emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY, models: options.models });
  pty = spawnOchat(options.args ?? ['-m', 'llama3.2'], {
    env: { OLLAMA_HOST: emu.url, TERM: 'dumb' },
    ...(options.cwd && { cwd: options.cwd }),
  });
  await pty.waitFor('num_ctx');
  await pty.waitFor(PROMPT);
  return { emu, pty };
}

/** Any escape sequence at all: CSI (cursor moves, erasing, colours), OSC, or a lone ESC. */
const ESCAPE = /\x1b/;

describe('TERM=dumb', () => {
  test('a chat in plain lines: prompt, streamed reply, commands, quit — no escape sequence at all', async () => {
    const { emu, pty } = await startDumb();
    expect(pty.screen()).toContain(`ochat · llama3.2 · ${emu.url} · num_ctx`);
    emu.enqueue({ content: 'Hello there.\n\nA second paragraph, streamed too.' });
    pty.write('hi there\r');
    await pty.waitFor('A second paragraph, streamed too.');
    await waitForChats(emu, 1);
    expect(emu.chats[0].body.messages).toEqual([{ role: 'user', content: 'hi there' }]);
    await pty.waitFor(/streamed too\.\n\n>>> $/);
    // The typed line is echoed once by the terminal, not printed again.
    expect(pty.screen().split('hi there').length - 1).toBe(1);

    pty.write('/help\r');
    await pty.waitFor('List the slash commands');
    pty.write('"""\r');
    pty.write('line one\r');
    pty.write('line two"""\r');
    await pty.waitFor('Echo: line one');
    await waitForChats(emu, 2);
    expect(emu.chats[1].body.messages.at(-1)).toEqual({ role: 'user', content: 'line one\nline two' });

    expect(pty.raw()).not.toMatch(ESCAPE);
    pty.write('/quit\r');
    expect(await exitCode(pty)).toBe(0);
    expect(pty.raw()).not.toMatch(ESCAPE);
  });

  test('thinking is printed as ollama run prints it; the model cannot move the cursor either', async () => {
    const { emu, pty } = await startDumb({
      models: [{ name: 'qwen3:latest', family: 'qwen3', capabilities: ['completion', 'thinking'] }],
      args: ['-m', 'qwen3'],
    });
    emu.enqueue({ thinking: 'Weighing the question.', content: 'Answer \x1b[2J\x1b[Hhere.' });
    pty.write('why?\r');
    await pty.waitFor('Answer here.');
    expect(pty.screen()).toContain('Thinking...\nWeighing the question.\n...done thinking.\n\nAnswer here.');
    expect(pty.raw()).not.toMatch(ESCAPE);
  });

  test('Ctrl+C cancels a streaming reply (kept, marked), then twice on the prompt quits', async () => {
    const { emu, pty } = await startDumb();
    emu.enqueue({ content: `Slow start ${'word '.repeat(400)}`, tokensPerSecond: 20 });
    pty.write('go slowly\r');
    await pty.waitFor('Slow start');
    pty.write('\x03');
    await pty.waitFor('[interrupted]');
    await pty.waitFor(/\[interrupted\]\n(?:.*\n)*>>> $/);
    // One press, one cancel: not taken for a first press towards quitting.
    expect(pty.screen()).not.toContain('Press Ctrl+C again');
    emu.enqueue({ content: 'Still here.' });
    pty.write('next\r');
    await pty.waitFor('Still here.');
    pty.write('\x03');
    await pty.waitFor('Press Ctrl+C again to quit');
    await deliberatePause(100, 'two separate presses of Ctrl+C, as a person makes them, not one burst');
    pty.write('\x03');
    expect(await exitCode(pty)).toBe(0);
    expect(pty.raw()).not.toMatch(ESCAPE);
  });

  test('a tool confirmation is a question answered by a line', async () => {
    const { emu, pty } = await startDumb({
      models: [{ name: 'llama3.2:latest', capabilities: ['completion', 'tools'] }],
    });
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo dumb-ok' } }] },
      { content: 'The command ran.' },
    );
    pty.write('run it\r');
    await pty.waitFor(/\? Allow run_command echo dumb-ok\? \(\[y\]es[\s\S]*\)\s*$/);
    // A line that answers nothing asks again; then y runs it.
    pty.write('maybe\r');
    await pty.waitFor(/maybe\n\? Allow run_command echo dumb-ok\?/);
    expect(emu.chats).toHaveLength(1);
    pty.write('y\r');
    await pty.waitFor('The command ran.');
    await waitForChats(emu, 2);
    expect(JSON.stringify(emu.chats[1].body.messages)).toContain('dumb-ok');
    expect(pty.raw()).not.toMatch(ESCAPE);
  });

  test('a notice that comes after the prompt (an MCP server up late) prints the prompt again; what was typed still goes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ochat-dumb-mcp-'));
    try {
      const config = join(dir, 'config.yml');
      // 200 tools over the definition budget: a notice once the server is up, 1.5 s after the prompt.
      writeFileSync(config, mcpConfig({ many: [FAULT_SERVER, 'many', '--start-delay=1500'] }));
      const { emu, pty } = await startDumb({
        models: [{ name: 'llama3.2:latest', capabilities: ['completion', 'tools'] }],
        args: ['-m', 'llama3.2', '-c', config, '--num-ctx', '4096'],
      });
      expect(pty.screen()).not.toContain('deferred');
      pty.write('typed before');
      await pty.waitFor('found by the model with find_tools', 20_000);
      // The notice is not the last thing on screen: the prompt is, again.
      await pty.waitFor(/find_tools\.\n+>>> $/);
      pty.write(' the notice\r');
      await waitForChats(emu, 1);
      expect(emu.chats[0].body.messages.at(-1)).toEqual({ role: 'user', content: 'typed before the notice' });
      expect(pty.raw()).not.toMatch(ESCAPE);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  test('the write_file question shows what will be written, as the README says: a diff, the first lines of a new file, once', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ochat-dumb-write-'));
    try {
      writeFileSync(join(cwd, 'notes.md'), 'alpha\nbeta\ngamma\n');
      const fresh = Array.from({ length: 25 }, (_, i) => `row ${i + 1}`);
      const { emu, pty } = await startDumb({
        models: [{ name: 'llama3.2:latest', capabilities: ['completion', 'tools'] }],
        cwd,
      });
      emu.enqueue(
        {
          toolCalls: [
            { name: 'write_file', arguments: { path: 'notes.md', content: 'alpha\nBETA \x1b[31m\ngamma\n' } },
          ],
        },
        { content: 'Changed it.' },
        {
          toolCalls: [
            { name: 'write_file', arguments: { path: 'fresh.md', content: `${fresh.join('\n')}\n` } },
          ],
        },
        { content: 'Not created.' },
      );
      pty.write('change it\r');
      await pty.waitFor(/\? Allow write_file notes\.md\?.*\)\s*$/);
      expect(pty.screen()).toMatch(
        /changes 1 line added, 1 line removed.*\n {2}@@ -1,3 \+1,3 @@\n {3}alpha\n {2}-beta\n {2}\+BETA ␛\[31m\n {3}gamma\n\? Allow write_file notes\.md\?/,
      );
      // A line that answers nothing asks again, without the preview a second time.
      pty.write('hmm\r');
      await pty.waitFor(/(\? Allow write_file notes\.md\?[\s\S]*){2}/);
      expect(pty.screen().split('-beta').length - 1).toBe(1);
      pty.write('y\r');
      await pty.waitFor('Changed it.');

      pty.write('make one\r');
      await pty.waitFor(/\? Allow write_file fresh\.md\?.*\)\s*$/);
      const screen = pty.screen();
      expect(screen).toContain('  new file, 25 lines');
      expect(screen).toContain('  +row 1\n  +row 2\n');
      expect(screen).toContain('  +row 20\n  … 5 more lines\n? Allow write_file fresh.md?');
      expect(screen).not.toContain('row 21');
      pty.write('n\r');
      await pty.waitFor('Not created.');
      expect(pty.raw()).not.toMatch(ESCAPE);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
