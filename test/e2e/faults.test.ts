/**
 * Faults in tools and in talking to the server, on the built CLI in a PTY: each must end with a
 * clear line, lose nothing, and leave the app usable (issue 7).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, PROMPT_PLACEHOLDER, startChat, waitForChats } from '../support/e2e-chat.js';
import { startToolRun, type ToolRun, toolMessagesOf } from '../support/tools-e2e.js';

let run: ToolRun | ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('tool faults', () => {
  test('malformed tool calls get error results; the chat, /context and /compact go on', async () => {
    const tools = await startToolRun();
    run = tools;
    const { emu, pty } = tools;
    emu.enqueue(
      { rawToolCalls: [{ function: {} }, { function: { name: 7 } }, null] },
      { content: 'Sorry, my calls were broken.' },
    );
    pty.write('list things\r');
    await pty.waitFor('Sorry, my calls were broken.');
    expect(pty.screen()).toContain('❌ malformed call (the tool name is missing)');
    expect(pty.screen()).toContain('❌ malformed call of 7 (the tool name is a number (7))');
    const [, second] = await tools.waitForRequests(2);
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
    expect(tools.chatRequests().every((request) => request.error === undefined)).toBe(true);
  });

  test('read_file on a FIFO is refused at once; the chat goes on', async () => {
    const tools = await startToolRun();
    run = tools;
    const { emu, pty, cwd } = tools;
    execFileSync('mkfifo', [join(cwd, 'pipe')]);
    emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'pipe' } }] },
      { content: 'It is a pipe.' },
    );
    pty.write('read pipe\r');
    await pty.waitFor('It is a pipe.');
    expect(pty.screen()).toContain('❌ read pipe (not a regular file)');
    const [, second] = await tools.waitForRequests(2);
    expect(toolMessagesOf(second)[0].content).toBe(
      'pipe is a named pipe (FIFO), not a regular file; only files can be read.',
    );
    pty.write('next\r');
    await pty.waitFor('Echo: next');
  });
});

describe('server faults', () => {
  test('after a mid-reply failure with a partial reply, an empty Enter retries the turn', async () => {
    run = await startChat();
    const { emu, pty } = run;
    emu.enqueue({
      content: 'Partial answer that will break off here',
      fault: {
        kind: 'error-line',
        afterChunks: 4,
        error: 'an error was encountered while running the model',
      },
    });
    pty.write('break please\r');
    await pty.waitFor('[interrupted]');
    await pty.waitFor('Press Enter on an empty prompt to retry');
    await pty.waitFor(PROMPT_PLACEHOLDER);
    pty.write('\r');
    await pty.waitFor('Echo: break please');
    await waitForChats(emu, 2);
    // The retry asks again; the partial reply stays on screen but is not sent to be continued.
    expect(emu.chats[1].body.messages).toEqual([{ role: 'user', content: 'break please' }]);
    expect(pty.screen()).toContain('Partial answer t');

    pty.write('next\r');
    await pty.waitFor('Echo: next');
    await waitForChats(emu, 3);
    const contents = (emu.chats[2].body.messages as { role: string; content: string }[]).map(
      (m) => m.content,
    );
    expect(contents).toEqual(['break please', 'Echo: break please', 'next']);
  });
});
