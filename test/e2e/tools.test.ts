/**
 * Tool calling end to end: the built CLI in a PTY, in a temp working directory, against the
 * emulator scripting tool calls. Each test checks what the user sees and what the model was sent.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { DECLINED_OUTPUT, UNCONFIRMED_OUTPUT } from '../../src/tools/execute.js';
import type { ChatMessageLike } from '../support/emulator.js';
import { startToolRun, type ToolRun, toolMessagesOf } from '../support/tools-e2e.js';
import { TOOLS_NARRATIVE } from '../support/tools-harness.js';

let run: ToolRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('tool calls in the chat', () => {
  test('read_file shows one line; /last-tool shows the output; after /compact the summary carries the line', async () => {
    run = await startToolRun({
      // Keep only the newest turn verbatim, so /compact folds the read_file turn into the summary.
      config: 'compaction:\n  keep_recent:\n    ratio: 0.01\n    min_tokens: 1\n',
    });
    const { emu, pty, cwd } = run;
    // Long enough that the summary is clearly smaller than the turn it replaces.
    const lines = Array.from({ length: 30 }, (_, i) => `line-${i + 1} of the notes, padded with some words`);
    writeFileSync(join(cwd, 'notes.txt'), `${lines.join('\n')}\n`);
    emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { content: 'The file lists three words.' },
    );
    pty.write('what is in notes.txt?\r');
    await pty.waitFor('The file lists three words.');
    expect(pty.screen()).toContain('⚙ read_file notes.txt — read notes.txt (lines 1–30 of 30)');
    expect(pty.screen()).not.toContain('line-2 ');
    const [, second] = await run.waitForRequests(2);
    expect(toolMessagesOf(second)).toEqual([
      { role: 'tool', tool_name: 'read_file', content: lines.join('\n') },
    ]);

    pty.write('/last-tool\r');
    await pty.waitFor('Output of read_file:');
    await pty.waitFor('line-30 of the notes');
    expect(pty.screen()).toContain('line-2 of the notes');

    pty.write('thanks\r');
    await pty.waitFor('Echo: thanks');
    pty.write('/compact\r');
    await pty.waitFor(/Compacted 4 messages: /);

    pty.write('and now?\r');
    await pty.waitFor('Echo: and now?');
    const last = (await run.waitForRequests(4)).at(-1)!;
    const messages = last.body.messages as ChatMessageLike[];
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('read notes.txt (lines 1–30 of 30)');
    expect(messages[0].content).toContain(TOOLS_NARRATIVE);
    expect(messages.some((m) => m.role === 'tool')).toBe(false);
  });

  test('run_command asks first: y runs it, n declines, i sends the typed instruction instead', async () => {
    run = await startToolRun();
    const { emu, pty, cwd } = run;
    const question =
      '? Allow run_command echo hi > made.txt? ([y]es / [n]o / [i]nstruct · no "always" for this call)';
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi > made.txt' } }] },
      { content: 'Made it.' },
    );
    pty.write('make a file\r');
    await pty.waitFor(question);
    expect(existsSync(join(cwd, 'made.txt'))).toBe(false);
    await pty.answer('y');
    await pty.waitFor('Made it.');
    expect(pty.screen()).toContain('⚙ run_command echo hi > made.txt — exit 0');
    expect(readFileSync(join(cwd, 'made.txt'), 'utf8')).toBe('hi\n');
    expect(toolMessagesOf((await run.waitForRequests(2))[1])[0].content).toBe('(no output)\n[exit code 0]');

    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'rm made.txt' } }] },
      { content: 'Left it alone.' },
    );
    pty.write('remove it\r');
    await pty.waitFor('? Allow run_command rm made.txt?');
    await pty.answer('n');
    await pty.waitFor('Left it alone.');
    expect(pty.screen()).toContain('✗ run_command rm made.txt — declined by the user');
    expect(existsSync(join(cwd, 'made.txt'))).toBe(true);
    const declined = (await run.waitForRequests(4))[3];
    expect(toolMessagesOf(declined).at(-1)).toEqual({
      role: 'tool',
      tool_name: 'run_command',
      content: DECLINED_OUTPUT,
    });

    // i: the user types an instruction, which the model gets instead of a result.
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'rm made.txt' } }] },
      { content: 'Understood.' },
    );
    pty.write('remove it now\r');
    await pty.waitFor('? Allow run_command rm made.txt? ([y]es');
    await pty.answer('i');
    await pty.waitFor('Type an instruction for the model instead');
    pty.write('keep the file\r');
    await pty.waitFor('Understood.');
    expect(pty.screen()).toContain('✗ run_command rm made.txt — not run, the user said: keep the file');
    expect(existsSync(join(cwd, 'made.txt'))).toBe(true);
    expect(toolMessagesOf((await run.waitForRequests(6))[5]).at(-1)?.content).toBe(
      'The user did not run the tool and says: keep the file',
    );
  });

  test('Ctrl+C during a long run_command cancels the turn; the app stays usable', async () => {
    run = await startToolRun({ config: 'tools:\n  confirm: []\n' });
    const { emu, pty, cwd } = run;
    emu.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch started; sleep 30' } }] });
    pty.write('wait\r');
    await pty.waitFor('running run_command');
    await expect.poll(() => existsSync(join(cwd, 'started'))).toBe(true);
    const cancelledAt = Date.now();
    pty.write('\x03');
    await pty.waitFor('✗ run_command touch started; sleep 30 — cancelled');
    expect(Date.now() - cancelledAt).toBeLessThan(10_000);

    emu.enqueue({ content: 'Still listening.' });
    pty.write('hello again\r');
    await pty.waitFor('Still listening.');
    const requests = await run.waitForRequests(2);
    expect(requests).toHaveLength(2);
    expect(toolMessagesOf(requests[1])[0].content).toContain('cancelled by the user');
  });

  test('/tools lists the tools; /tools off read_file takes it out of the request', async () => {
    run = await startToolRun();
    const { pty } = run;
    pty.write('/tools\r');
    await pty.waitFor('Tools:');
    await pty.waitFor('● run_command');
    expect(pty.screen()).toContain('● read_file');
    expect(pty.screen()).toContain('(asks first)');
    pty.write('/tools off read_file\r');
    await pty.waitFor('read_file disabled.');
    pty.write('/tools\r');
    await pty.waitFor('○ read_file');
    pty.write('hi\r');
    await pty.waitFor('Echo: hi');
    const [request] = await run.waitForRequests(1);
    const offered = (request.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered).toEqual(['list_directory', 'search_files', 'get_time', 'write_file', 'run_command']);
  });
});

describe('one-shot mode', () => {
  test('-p without -y runs no tool that needs confirmation: says so, says -y allows it, and tells the model the same', async () => {
    run = await startToolRun({ args: ['-p', 'make a file'], oneShot: true });
    const { emu, pty, cwd } = run;
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi > made.txt' } }] },
      { content: 'It needs your confirmation.' },
    );
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toContain('✗ run_command echo hi > made.txt — needs confirmation; -y allows it');
    expect(pty.screen()).not.toContain('declined');
    expect(pty.screen()).toContain('It needs your confirmation.');
    expect(existsSync(join(cwd, 'made.txt'))).toBe(false);
    const told = toolMessagesOf(run.chatRequests()[1])[0].content;
    expect(told).toBe(UNCONFIRMED_OUTPUT);
    expect(told).toContain('-y');
    expect(told).toContain('the user did not decline');
  });

  test('-p --yes runs it', async () => {
    run = await startToolRun({ args: ['-p', 'make a file', '--yes'], oneShot: true });
    const { emu, pty, cwd } = run;
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi > made.txt' } }] },
      { content: 'Made it.' },
    );
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toContain('⚙ run_command echo hi > made.txt — exit 0');
    expect(readFileSync(join(cwd, 'made.txt'), 'utf8')).toBe('hi\n');
  });
});
