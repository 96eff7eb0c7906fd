/**
 * Faults in tools and in talking to the server, on the built CLI in a PTY: each must end with a
 * clear line, lose nothing, and leave the app usable (issue 7).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startToolRun, type ToolRun, toolMessagesOf } from '../support/tools-e2e.js';

let run: ToolRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('tool faults', () => {
  test('malformed tool calls get error results; the chat, /context and /compact go on', async () => {
    run = await startToolRun();
    const { emu, pty } = run;
    emu.enqueue(
      { rawToolCalls: [{ function: {} }, { function: { name: 7 } }, null] },
      { content: 'Sorry, my calls were broken.' },
    );
    pty.write('list things\r');
    await pty.waitFor('Sorry, my calls were broken.');
    expect(pty.screen()).toContain('❌ malformed call (the tool name is missing)');
    expect(pty.screen()).toContain('❌ malformed call of 7 (the tool name is a number (7))');
    const [, second] = await run.waitForRequests(2);
    expect(second.error).toBeUndefined();
    expect(toolMessagesOf(second).map((m) => m.content)).toEqual([
      expect.stringMatching(/^Error: malformed tool call: the tool name is missing\./),
      expect.stringMatching(/^Error: malformed tool call: the tool name is a number \(7\)\./),
      expect.stringMatching(/^Error: malformed tool call: the call is null, not an object\./),
    ]);

    pty.write('still there?\r');
    await pty.waitFor('Echo: still there?');
    pty.write('/context\r');
    await pty.waitFor('Context window:');
    pty.write('/compact\r');
    await pty.waitFor(/Compacted \d+ messages/);
    expect(run.chatRequests().every((request) => request.error === undefined)).toBe(true);
  });

  test('read_file on a FIFO is refused at once; the chat goes on', async () => {
    run = await startToolRun();
    const { emu, pty, cwd } = run;
    execFileSync('mkfifo', [join(cwd, 'pipe')]);
    emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'pipe' } }] },
      { content: 'It is a pipe.' },
    );
    pty.write('read pipe\r');
    await pty.waitFor('It is a pipe.');
    expect(pty.screen()).toContain('❌ read pipe (not a regular file)');
    const [, second] = await run.waitForRequests(2);
    expect(toolMessagesOf(second)[0].content).toBe(
      'pipe is a named pipe (FIFO), not a regular file; only files can be read.',
    );
    pty.write('next\r');
    await pty.waitFor('Echo: next');
  });
});
