/**
 * Small things a user trips on, end to end: how a big paste is counted, the shell prompt after
 * Ctrl+D in line mode, /history's wording and marks, /show parameters, --help and /help.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, exitCode, startChat } from '../support/e2e-chat.js';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { type PtySession, spawnOchat } from '../support/pty-session.js';
import { startToolRun, type ToolRun } from '../support/tools-e2e.js';

let run: ChatRun | undefined;
let tools: ToolRun | undefined;
let emu: Emulator | undefined;
let pty: PtySession | undefined;

afterEach(async () => {
  await run?.close();
  await tools?.close();
  await pty?.dispose();
  await emu?.close();
  run = tools = pty = emu = undefined;
});

describe('polish', () => {
  test('a 2,000-line paste is [pasted 2,000 lines]', async () => {
    run = await startChat();
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`);
    await run.pty.writeInPieces(`\x1b[200~${lines.join('\n')}\n\x1b[201~`);
    await run.pty.waitFor('[pasted 2,000 lines]');
    expect(run.pty.screen()).not.toContain('2,001');
  });

  test('TERM=dumb: Ctrl+D on the prompt ends the line, so the shell prompt starts on its own', async () => {
    emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
    pty = spawnOchat(['-m', 'llama3.2'], { env: { OLLAMA_HOST: emu.url, TERM: 'dumb' } });
    await pty.waitFor('>>> ');
    pty.write('\x04');
    expect(await exitCode(pty)).toBe(0);
    expect(pty.raw()).toMatch(/>>> \r?\n$/);
  });

  test('/history: no double space before tool calls; times said as /summary says them, not in ISO', async () => {
    tools = await startToolRun();
    const { emu: toolEmu, pty: toolPty } = tools;
    toolEmu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch nope.txt' } }] },
      { content: 'Not run then.' },
    );
    toolPty.write('make a file\r');
    await toolPty.waitFor('? Allow run_command touch nope.txt?');
    await toolPty.answer('n');
    await toolPty.waitFor('Not run then.');
    expect(toolPty.screen()).toContain('✗ run_command touch nope.txt');
    toolPty.write('/history\r');
    await toolPty.waitFor('[2] assistant:');
    const screen = toolPty.screen();
    expect(screen).toMatch(/\[2\] assistant: \(tool calls: run_command\)/);
    expect(screen).not.toContain('assistant:  (');
    expect(screen).toMatch(/started just now in/);
    expect(screen).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  });

  test('a declined tool call shows ✗ after a resume, as it did live', async () => {
    tools = await startToolRun();
    const { emu: toolEmu, pty: toolPty } = tools;
    toolEmu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch nope.txt' } }] },
      { content: 'Not run then.' },
    );
    toolPty.write('make a file\r');
    await toolPty.waitFor('? Allow run_command touch nope.txt?');
    await toolPty.answer('n');
    await toolPty.waitFor('Not run then.');
    toolPty.write('/quit\r');
    await exitCode(toolPty);
    const home = toolPty.home;
    const resumed = spawnOchat(['-m', 'toolbot', '--continue'], {
      home,
      cwd: tools.cwd,
      cols: 120,
      env: { OLLAMA_HOST: toolEmu.url },
    });
    try {
      await resumed.waitFor('Resumed session');
      expect(resumed.screen()).toContain('✗ run_command touch nope.txt — declined by the user');
      expect(resumed.screen()).not.toContain('⚙ run_command touch nope.txt');
    } finally {
      await resumed.dispose();
    }
  });

  test('/show parameters lists num_ctx given with --num-ctx, and after /set', async () => {
    run = await startChat({ args: ['-m', 'llama3.2', '--num-ctx', '3000'] });
    run.pty.write('/show parameters\r');
    await run.pty.waitFor(/num_ctx\s+3000/);
    run.pty.write('/set num_ctx 5000\r');
    await run.pty.waitFor('5000');
    run.pty.write('/show parameters\r');
    await run.pty.waitFor(/num_ctx\s+5000/);
  });

  test('--help names $XDG_CONFIG_HOME for the config file; /help lists /q as README does', async () => {
    const help = await runOchat(['--help']);
    expect(help.stdout).toContain('$XDG_CONFIG_HOME/ochat/config.yml');
    expect(help.stdout).not.toContain('or ~/.config/ochat/config.yml');
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('`/quit` (`/exit`, `/bye`, `/q`)');
  });
});
