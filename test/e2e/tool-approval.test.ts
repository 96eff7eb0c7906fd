/**
 * Tool approval end to end: the built CLI in a PTY against the emulator scripting tool calls.
 * "always" is scoped (a command's leading words, a file's path), listed and revocable in /tools.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startToolRun, type ToolRun } from '../support/tools-e2e.js';
import { deliberatePause } from '../support/wait-until.js';

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
    await pty.answer('a');
    await pty.waitFor('First done.');

    // The same leading words run unasked.
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first again' } }] },
      { content: 'Again done.' },
    );
    pty.write('again\r');
    await pty.waitFor('Again done.');
    expect(pty.screen()).toContain('⚙ run_command echo first again — exit 0');

    // Another command asks; so does a compound line behind the approved words.
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first; touch out/danger.txt' } }] },
      { content: 'Not run.' },
    );
    pty.write('danger\r');
    await pty.waitFor('? Allow run_command echo first; touch out/danger.txt? ([y]es / [n]o / [i]nstruct');
    await pty.answer('n');
    await pty.waitFor('Not run.');
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch danger.txt' } }] },
      { content: 'Still not run.' },
    );
    pty.write('danger again\r');
    await pty.waitFor('? Allow run_command touch danger.txt? ([y]es / [n]o / [a]lways allow "touch …"');
    await pty.answer('n');
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
    await pty.answer('y');
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
    await pty.answer('a');
    await pty.waitFor('Wrote it.');
    pty.write('rewrite notes\r');
    await pty.waitFor('Rewrote it.');
    expect(readFileSync(join(cwd, 'notes.md'), 'utf8')).toBe('two\n');
    pty.write('write other\r');
    await pty.waitFor('? Allow write_file other.md?');
    await pty.answer('n');
    await pty.waitFor('Declined.');
    expect(existsSync(join(cwd, 'other.md'))).toBe(false);
  });
});

describe('keys typed while a question is open', () => {
  test('stay in the prompt for afterwards (aside while an instruction is typed); a y among them does not approve', async () => {
    run = await startToolRun();
    const { emu, pty, cwd } = run;
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch typed.txt' } }] },
      { content: 'Left alone.' },
      { content: 'Reply to the typed text.' },
    );
    pty.write('make it\r');
    await pty.waitFor('? Allow run_command touch typed.txt?');
    pty.write('okay why not'); // typed ahead in one burst (over SSH, or fast)
    for (const key of [' ', 'y', 'e', 's', '\r']) {
      await deliberatePause(60, 'a fast typist, key by key');
      pty.write(key);
    }
    await pty.waitFor('Typing goes to the prompt. To answer, pause, then press y, n, a, i on its own.');
    await pty.waitFor('okay why not yes');
    // Give a wrongly taken y (or Enter) every chance to have run the command.
    await deliberatePause(300, 'a window in which a wrongly taken y (or Enter) would run the command');
    expect(existsSync(join(cwd, 'typed.txt'))).toBe(false);
    expect(run.chatRequests()).toHaveLength(1);

    // i: the instruction is typed in an empty prompt; the typed-ahead text waits aside.
    await pty.answer('i');
    await pty.waitFor('Type an instruction for the model instead');
    pty.write('leave it\r');
    await pty.waitFor('Left alone.');
    expect(existsSync(join(cwd, 'typed.txt'))).toBe(false);
    const tool = (await run.waitForRequests(2))[1].body.messages as { role: string; content: string }[];
    expect(tool.at(-1)).toMatchObject({
      role: 'tool',
      content: 'The user did not run the tool and says: leave it',
    });
    pty.write('\r');
    await pty.waitFor('Reply to the typed text.');
    const last = (await run.waitForRequests(3))[2];
    const messages = last.body.messages as { role: string; content: string }[];
    expect(messages.at(-1)).toMatchObject({ role: 'user', content: 'okay why not yes' });
  });
});

describe('the write_file question shows what will be written', () => {
  test('a diff of a changed file, the first lines of a new one, each cut with a count of the rest', async () => {
    run = await startToolRun();
    const { emu, pty, cwd } = run;
    const old = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    writeFileSync(join(cwd, 'notes.md'), `${old.join('\n')}\n`);
    const changed = old.map((line) => (line === 'line 3' ? 'line three \x1b[31mred' : line));
    const fresh = Array.from({ length: 50 }, (_, i) => `row ${i + 1}`);
    emu.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'notes.md', content: `${changed.join('\n')}\n` } },
        ],
      },
      { content: 'Changed it.' },
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'fresh.md', content: `${fresh.join('\n')}\n` } },
        ],
      },
      { content: 'Created it.' },
    );
    pty.write('change line 3\r');
    await pty.waitFor('? Allow write_file notes.md?');
    await pty.waitFor('changes 1 line added, 1 line removed (30 lines');
    const diff = pty.screen();
    expect(diff).toContain(
      [
        '  @@ -1,6 +1,6 @@',
        '   line 1',
        '   line 2',
        '  -line 3',
        '  +line three ␛[31mred',
        '   line 4',
      ].join('\n'),
    );
    expect(diff).not.toContain('line 10');
    await pty.answer('y');
    await pty.waitFor('Changed it.');
    expect(readFileSync(join(cwd, 'notes.md'), 'utf8')).toContain('line three \x1b[31mred');

    pty.write('make a new file\r');
    await pty.waitFor('? Allow write_file fresh.md?');
    await pty.waitFor('… 30 more lines');
    const screen = pty.screen();
    expect(screen).toContain('  new file, 50 lines, 341 bytes\n  +row 1\n  +row 2\n');
    expect(screen).toContain('  +row 20\n  … 30 more lines');
    expect(screen).not.toContain('row 21');
    await pty.answer('n');
    await pty.waitFor('Created it.');
    expect(existsSync(join(cwd, 'fresh.md'))).toBe(false);
  });
});

describe('one visible form of a command', () => {
  test('the question and the transcript line show a \\r, a zero-width character and U+2028 alike, nothing hidden', async () => {
    run = await startToolRun();
    const { emu, pty } = run;
    const command = 'echo safe\rtouch HIDDEN-PWNED\u200b\u2028x';
    const shown = 'echo safe␍touch HIDDEN-PWNED<U+200B><U+2028>x';
    emu.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { content: 'Ran.' });
    pty.write('run it\r');
    await pty.waitFor(`? Allow run_command ${shown}?`);
    await pty.answer('y');
    await pty.waitFor('Ran.');
    expect(pty.screen()).toContain(`run_command ${shown} — exit 0`);
  });
});

describe('while a tool call waits for approval', () => {
  test('the status line says it waits for the answer and which keys answer, not that the tool runs', async () => {
    run = await startToolRun();
    const { emu, pty } = run;
    emu.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'hello\n' } }] },
      { content: 'Written.' },
    );
    pty.write('write it\r');
    await pty.waitFor('? Allow write_file x.txt?');
    const status = pty.screen().split('\n').at(-1) ?? '';
    expect(status).toContain('waiting for your answer · y/n/a/i');
    expect(status).toContain('esc to decline');
    expect(pty.screen()).not.toContain('running write_file');
    await pty.answer('y');
    await pty.waitFor('Written.');
    expect(pty.screen()).not.toContain('waiting for your answer');
  });
});
