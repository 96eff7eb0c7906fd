/**
 * Tool approval end to end: the built CLI in a PTY against the emulator scripting tool calls.
 * "always" is scoped (a command's leading words, a file's path), listed and revocable in /tools.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startToolRun, type ToolRun } from '../support/tools-e2e.js';

let run: ToolRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('"always" is scoped', () => {
  test('a on `echo first` does not let `touch out/danger.txt` run; /tools lists and revokes it', async () => {
    run = await startToolRun();
    const { emu, pty, cwd } = run;
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first' } }] },
      { content: 'First done.' },
    );
    pty.write('say first\r');
    await pty.waitFor(
      '? Allow run_command echo first? ([y]es / [n]o / [a]lways allow "echo first …" this session / [i]nstruct)',
    );
    pty.write('a');
    await pty.waitFor('First done.');

    // The same leading words run unasked.
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first again' } }] },
      { content: 'Again done.' },
    );
    pty.write('again\r');
    await pty.waitFor('Again done.');
    expect(pty.screen()).toContain('⚙ run_command echo first again — ✅ echo first again (exit 0)');

    // Another command asks; so does a compound line behind the approved words.
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first; touch out/danger.txt' } }] },
      { content: 'Not run.' },
    );
    pty.write('danger\r');
    await pty.waitFor('? Allow run_command echo first; touch out/danger.txt? ([y]es / [n]o / [i]nstruct');
    pty.write('n');
    await pty.waitFor('Not run.');
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch danger.txt' } }] },
      { content: 'Still not run.' },
    );
    pty.write('danger again\r');
    await pty.waitFor('? Allow run_command touch danger.txt? ([y]es / [n]o / [a]lways allow "touch …"');
    pty.write('n');
    await pty.waitFor('Still not run.');
    expect(existsSync(join(cwd, 'danger.txt'))).toBe(false);
    expect(existsSync(join(cwd, 'out'))).toBe(false);

    pty.write('/tools\r');
    await pty.waitFor('Allowed without asking this session ("always"; /tools revoke <n|all> to withdraw):');
    await pty.waitFor('1. run_command echo first …');
    pty.write('/tools revoke 1\r');
    await pty.waitFor('Revoked run_command echo first …: it asks first again.');
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first' } }] },
      { content: 'Asked again.' },
    );
    pty.write('first once more\r');
    await pty.waitFor('? Allow run_command echo first?');
    pty.write('y');
    await pty.waitFor('Asked again.');
  });

  test('a on write_file covers that path only', async () => {
    run = await startToolRun();
    const { emu, pty, cwd } = run;
    emu.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'one\n' } }] },
      { content: 'Wrote it.' },
      { toolCalls: [{ name: 'write_file', arguments: { path: './notes.md', content: 'two\n' } }] },
      { content: 'Rewrote it.' },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'other.md', content: 'x\n' } }] },
      { content: 'Declined.' },
    );
    pty.write('write notes\r');
    await pty.waitFor('[a]lways allow "notes.md" this session');
    pty.write('a');
    await pty.waitFor('Wrote it.');
    pty.write('rewrite notes\r');
    await pty.waitFor('Rewrote it.');
    expect(readFileSync(join(cwd, 'notes.md'), 'utf8')).toBe('two\n');
    pty.write('write other\r');
    await pty.waitFor('? Allow write_file other.md?');
    pty.write('n');
    await pty.waitFor('Declined.');
    expect(existsSync(join(cwd, 'other.md'))).toBe(false);
  });
});
