import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DECLINED_OUTPUT, UNCONFIRMED_OUTPUT } from '../../src/tools/execute.js';
import type { ChatMessageLike } from '../support/emulator.js';
import {
  startToolHarness,
  TOOLS_NARRATIVE,
  type ToolHarness,
  type ToolHarnessOptions,
} from '../support/tools-harness.js';

const ALL_TOOLS = ['read_file', 'list_directory', 'search_files', 'get_time', 'write_file', 'run_command'];

let harness: ToolHarness | undefined;

async function open(options: ToolHarnessOptions = {}): Promise<ToolHarness> {
  harness = await startToolHarness(options);
  return harness;
}

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Names of the tools a request offered, or undefined when it had no `tools` field. */
function offeredTools(body: { tools?: { function: { name: string } }[] }): string[] | undefined {
  return body.tools?.map((t) => t.function.name);
}

/** `count` numbered lines: `line 1 …`, `line 2 …`. */
function numberedLines(count: number, width = 0): string {
  return Array.from({ length: count }, (_, i) => `line ${i + 1} ${'x'.repeat(width)}`.trimEnd()).join('\n');
}

describe('tools offered by capability', () => {
  it('sends every enabled tool to a model with the tools capability', async () => {
    const h = await open();
    expect(await h.send('hi')).toBe('idle');
    const [request] = h.chatRequests();
    expect(request.error).toBeUndefined();
    expect(offeredTools(request.body)).toEqual(ALL_TOOLS);
    expect(request.body.tools[0]).toMatchObject({
      type: 'function',
      function: { name: 'read_file', parameters: { type: 'object', required: ['path'] } },
    });
  });

  it('sends no tools field to a model without the capability (and is not refused)', async () => {
    const h = await open({ capabilities: ['completion'] });
    expect(await h.send('hi')).toBe('idle');
    const [request] = h.chatRequests();
    expect(request.error).toBeUndefined();
    expect(request.body).not.toHaveProperty('tools');
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'Echo: hi' });
  });
});

describe('read_file through the loop', () => {
  it('shows one line with the summary and sends the file back as a tool message', async () => {
    const h = await open();
    writeFileSync(join(h.cwd, 'notes.txt'), 'alpha\nbeta\ngamma\n');
    h.emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { content: 'It lists three words.' },
    );
    expect(await h.send('what is in notes.txt?')).toBe('idle');

    expect(h.toolItems()).toEqual([
      expect.objectContaining({
        name: 'read_file',
        keyArgument: 'notes.txt',
        summary: 'read notes.txt (lines 1–3 of 3)',
        ok: true,
      }),
    ]);
    // The file content is not dumped on screen: only the tool line and the answer.
    const shown = JSON.stringify(h.items());
    expect(shown).not.toContain('gamma');
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'It lists three words.' });

    const requests = h.chatRequests();
    expect(requests).toHaveLength(2);
    const messages = requests[1].body.messages as ChatMessageLike[];
    const call = messages.find((m) => m.role === 'assistant');
    expect(call?.tool_calls).toEqual([
      expect.objectContaining({ function: expect.objectContaining({ name: 'read_file' }) }),
    ]);
    expect(messages.at(-1)).toEqual({ role: 'tool', tool_name: 'read_file', content: 'alpha\nbeta\ngamma' });
  });

  it('after /compact the system message carries the one-line summary instead of the tool message', async () => {
    const h = await open({
      configure: (config) => {
        // Keep only the newest turn verbatim, so /compact folds the read_file turn into the summary.
        config.compaction.keep_recent = { ratio: 0.01, min_tokens: 1 };
      },
    });
    writeFileSync(join(h.cwd, 'notes.txt'), numberedLines(60, 20));
    h.emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { content: 'It has sixty numbered lines.' },
    );
    await h.send('what is in notes.txt?');
    await h.send('thanks');
    expect(await h.send('/compact')).toBe('idle');
    expect(h.notices().at(-1)).toMatch(/^Compacted 4 messages: /);

    await h.send('and now?');
    const last = h.chatRequests().at(-1)!;
    const messages = last.body.messages as ChatMessageLike[];
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('read notes.txt (lines 1–60 of 60)');
    expect(messages[0].content).toContain(TOOLS_NARRATIVE);
    // The tool cycle itself is gone from the view; only the summary speaks for it.
    expect(messages.some((m) => m.role === 'tool')).toBe(false);
    expect(messages.map((m) => m.content).join('\n')).not.toContain('line 60');
  });
});

describe('run_command confirmation', () => {
  const command = 'echo created > made.txt && echo command-ran';

  it('runs after y: the file is created and the output reaches the model', async () => {
    const h = await open();
    h.emu.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { content: 'Done.' });
    const dialog = await h.send('make the file');
    expect(dialog).toMatchObject({
      kind: 'confirm-tool',
      question: `Allow run_command ${command}?`,
      choices: '[y]es / [n]o / [i]nstruct · no "always" for this call',
    });
    expect(existsSync(join(h.cwd, 'made.txt'))).toBe(false);
    expect(await h.answer('y')).toBe('idle');

    expect(readFileSync(join(h.cwd, 'made.txt'), 'utf8')).toBe('created\n');
    expect(h.toolItems()).toEqual([
      expect.objectContaining({
        name: 'run_command',
        keyArgument: command,
        summary: `✅ ${command} (exit 0)`,
      }),
    ]);
    const [result] = h.toolMessages(h.chatRequests()[1]);
    expect(result).toEqual({
      role: 'tool',
      tool_name: 'run_command',
      content: 'command-ran\n\n[exit code 0]',
    });
  });

  it('does not run after n: the model is told the user declined', async () => {
    const h = await open();
    h.emu.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { content: 'Okay.' });
    expect(await h.send('make the file')).toMatchObject({ kind: 'confirm-tool' });
    expect(await h.answer('n')).toBe('idle');

    expect(existsSync(join(h.cwd, 'made.txt'))).toBe(false);
    expect(h.toolItems()[0]).toMatchObject({ ok: false, summary: `❌ ${command} (declined by the user)` });
    const [result] = h.toolMessages(h.chatRequests()[1]);
    expect(result.content).toBe(DECLINED_OUTPUT);
    expect(result.content).toContain('declined');
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'Okay.' });
  });

  it('after a, later calls with the same leading words run unasked; others and compound lines still ask', async () => {
    const h = await open();
    h.emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first > one.txt' } }] },
      { content: 'First done.' },
    );
    expect(await h.send('first')).toMatchObject({ kind: 'confirm-tool' });
    // A redirection: nothing beyond this run can be approved, so "always" is not offered.
    expect(h.dialogs[0]).toMatchObject({ keys: ['y', 'n', 'i'] });
    expect(h.dialogs[0].choices).toBe('[y]es / [n]o / [i]nstruct · no "always" for this call');
    expect(await h.answer('y')).toBe('idle');

    h.emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first' } }] },
      { content: 'Second done.' },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first again' } }] },
      { content: 'Third done.' },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch danger.txt' } }] },
      { content: 'Fourth done.' },
    );
    expect(await h.send('second')).toMatchObject({
      kind: 'confirm-tool',
      choices: '[y]es / [n]o / [a]lways allow "echo first …" this session / [i]nstruct',
    });
    expect(await h.answer('a')).toBe('idle');
    expect(await h.send('third')).toBe('idle');
    expect(h.dialogs).toHaveLength(2);
    expect(await h.send('fourth')).toMatchObject({
      kind: 'confirm-tool',
      question: 'Allow run_command touch danger.txt?',
    });
    expect(await h.answer('n')).toBe('idle');
    expect(existsSync(join(h.cwd, 'danger.txt'))).toBe(false);

    expect(h.controller.host.tools.approvals()).toEqual([{ tool: 'run_command', scope: 'echo first …' }]);
    expect(h.controller.host.tools.list().find((t) => t.name === 'run_command')?.needsConfirmation).toBe(
      true,
    );
    h.controller.host.tools.revokeApprovals('all');
    h.emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first' } }] },
      { content: 'Asked again.' },
    );
    expect(await h.send('fifth')).toMatchObject({ kind: 'confirm-tool' });
    expect(await h.answer('y')).toBe('idle');
  });

  it('after i, the typed instruction is returned to the model instead of running the tool', async () => {
    const h = await open();
    h.emu.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { content: 'Will do.' });
    await h.send('make the file');
    expect(await h.answer('i')).toMatchObject({ kind: 'tool-instruction' });
    expect(await h.answer('use write_file instead')).toBe('idle');

    expect(existsSync(join(h.cwd, 'made.txt'))).toBe(false);
    const [result] = h.toolMessages(h.chatRequests()[1]);
    expect(result.content).toBe('The user did not run the tool and says: use write_file instead');
    expect(h.toolItems()[0].summary).toBe(`❌ ${command} (not run, the user said: use write_file instead)`);
  });

  it('one-shot mode declines without asking, and runs with --yes', async () => {
    const declined = await open({ interactive: false, autoConfirm: 'no' });
    declined.emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command } }] },
      { content: 'No.' },
    );
    expect(await declined.send('make the file')).toBe('idle');
    expect(declined.dialogs).toEqual([]);
    expect(existsSync(join(declined.cwd, 'made.txt'))).toBe(false);
    expect(declined.toolMessages(declined.chatRequests()[1])[0].content).toBe(UNCONFIRMED_OUTPUT);
    await declined.close();

    const approved = await open({ interactive: false, autoConfirm: 'yes' });
    approved.emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command } }] },
      { content: 'Yes.' },
    );
    expect(await approved.send('make the file')).toBe('idle');
    expect(approved.dialogs).toEqual([]);
    expect(readFileSync(join(approved.cwd, 'made.txt'), 'utf8')).toBe('created\n');
    // Tools that need no confirmation run in one-shot mode regardless.
    expect(approved.toolItems()[0].ok).toBe(true);
  });
});

describe('errors become tool results', () => {
  it('refuses a path outside the working directory and carries on', async () => {
    const h = await open();
    writeFileSync(join(h.outside, 'secret.txt'), 'top secret');
    h.emu.enqueue(
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: '../outside/secret.txt' } },
          { name: 'read_file', arguments: { path: join(h.outside, 'secret.txt') } },
        ],
      },
      { content: 'I cannot read that.' },
    );
    expect(await h.send('read the secret')).toBe('idle');

    const results = h.toolMessages(h.chatRequests()[1]);
    expect(results).toHaveLength(2);
    for (const result of results) {
      expect(result.tool_name).toBe('read_file');
      expect(result.content).toMatch(/^Access denied: .* is outside the working directory/);
      expect(result.content).not.toContain('top secret');
    }
    expect(h.toolItems().map((item) => item.ok)).toEqual([false, false]);
    expect(h.toolItems()[0].summary).toBe('❌ read ../outside/secret.txt (access denied)');
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'I cannot read that.' });
    expect(h.notices().filter((text) => /error/i.test(text))).toEqual([]);

    // The app goes on: the next message is answered normally.
    expect(await h.send('ok')).toBe('idle');
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'Echo: ok' });
  });

  it('turns a missing file and bad arguments into results the model can act on', async () => {
    const h = await open();
    h.emu.enqueue(
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'missing.txt' } },
          { name: 'read_file', arguments: { offset: 2 } },
        ],
      },
      { content: 'Let me try again.' },
    );
    expect(await h.send('read something')).toBe('idle');

    const [missing, invalid] = h.toolMessages(h.chatRequests()[1]);
    expect(missing.content).toBe('File not found: missing.txt');
    expect(invalid.content).toMatch(/^Error: invalid arguments for read_file: .*path/);
    expect(h.toolItems().map((item) => item.summary)).toEqual([
      '❌ read missing.txt (file not found)',
      expect.stringContaining('(invalid arguments)'),
    ]);
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'Let me try again.' });
  });

  it('answers an unknown tool name with an error result naming the tools that exist', async () => {
    const h = await open();
    h.emu.enqueue({ toolCalls: [{ name: 'fly_to_moon', arguments: { speed: 3 } }] }, { content: 'Sorry.' });
    expect(await h.send('fly')).toBe('idle');

    const [result] = h.toolMessages(h.chatRequests()[1]);
    expect(result.tool_name).toBe('fly_to_moon');
    expect(result.content).toBe(`Error: unknown tool "fly_to_moon"; available: ${ALL_TOOLS.join(', ')}.`);
    expect(h.toolItems()).toEqual([
      expect.objectContaining({ name: 'fly_to_moon', ok: false, summary: 'fly_to_moon was called.' }),
    ]);
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'Sorry.' });
  });
});

describe('malformed tool calls', () => {
  it('answers each with an error result; later replies, /context and /compact keep working', async () => {
    const h = await open();
    h.emu.enqueue(
      {
        rawToolCalls: [
          { function: {} },
          { function: { name: 42 } },
          null,
          { function: { name: 'get_time', arguments: 5 } },
        ],
      },
      { content: 'I will call tools properly.' },
    );
    expect(await h.send('do something')).toBe('idle');
    const [, second] = h.chatRequests();
    expect(second.error).toBeUndefined();
    const results = h.toolMessages(second);
    expect(results.map((m) => m.content)).toEqual([
      expect.stringContaining('Error: malformed tool call: the tool name is missing.'),
      expect.stringContaining('Error: malformed tool call: the tool name is a number (42).'),
      expect.stringContaining('Error: malformed tool call: the call is null, not an object.'),
      expect.stringContaining(
        'Error: malformed tool call: the arguments are a number (5), not a JSON object.',
      ),
    ]);
    // What was sent back is what real Ollama accepts: string names, object arguments.
    const assistant = (second.body.messages as ChatMessageLike[]).find((m) => m.tool_calls);
    expect(assistant?.tool_calls).toEqual([
      { function: { name: '', arguments: {} } },
      { function: { name: '42', arguments: {} } },
      { function: { name: '', arguments: {} } },
      { function: { name: 'get_time', arguments: {} } },
    ]);
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'I will call tools properly.' });

    expect(await h.send('and now?')).toBe('idle');
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'Echo: and now?' });
    expect(await h.send('/context')).toBe('idle');
    expect(h.notices().at(-1)).toContain('Context window:');
    expect(await h.send('/compact')).toBe('idle');
    expect(h.notices().at(-1)).toMatch(/^Compacted \d+ messages/);
    expect(h.chatRequests().every((request) => request.error === undefined)).toBe(true);
  });
});

describe('tools.max_steps', () => {
  it('stops the loop with a warning when the model keeps calling tools', async () => {
    const h = await open({ tools: { max_steps: 3 } });
    h.emu.respondWith(() => ({ toolCalls: [{ name: 'get_time', arguments: {} }] }));
    expect(await h.send('what time is it, forever?')).toBe('idle');

    expect(h.chatRequests()).toHaveLength(3);
    // The calls of the last allowed reply still ran, so every call has a result.
    expect(h.toolItems()).toHaveLength(3);
    expect(h.notices().at(-1)).toBe(
      'Stopped after 3 tool rounds (tools.max_steps). Send a message to continue.',
    );
    // Nothing more is sent on its own.
    await h.controller.idle();
    expect(h.chatRequests()).toHaveLength(3);
  });
});

describe('Ctrl+C during a long run_command', () => {
  it('kills the command, ends the turn cleanly and leaves the app usable', async () => {
    const h = await open({ tools: { confirm: [] } });
    h.emu.enqueue({
      toolCalls: [{ name: 'run_command', arguments: { command: 'echo $$ > pid.txt; exec sleep 30' } }],
    });
    const started = Date.now();
    const turn = h.send('wait a while');
    const pidFile = join(h.cwd, 'pid.txt');
    await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '').toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(h.controller.store.get().busy).toBe('running run_command…');

    expect(h.controller.interrupt()).toBe(true);
    expect(await turn).toBe('idle');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(h.controller.store.get().busy).toBeUndefined();
    expect(h.toolItems()[0]).toMatchObject({ ok: false, summary: expect.stringContaining('(cancelled)') });
    // The turn ended: no further request was sent after the cancelled tool.
    expect(h.chatRequests()).toHaveLength(1);

    h.emu.enqueue({ content: 'Still here.' });
    expect(await h.send('are you there?')).toBe('idle');
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'Still here.' });
    const [result] = h.toolMessages(h.chatRequests()[1]);
    expect(result.content).toContain('cancelled by the user');
  });
});

describe('Ctrl+C during the reply after a tool', () => {
  it('keeps the partial reply, stops the turn, and the next message goes through', async () => {
    const h = await open();
    writeFileSync(join(h.cwd, 'notes.txt'), 'alpha');
    h.emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { content: 'The file says alpha and more', fault: { kind: 'hang', afterChunks: 2 } },
    );
    const turn = h.send('read notes.txt');
    await expect.poll(() => h.controller.store.get().live?.text ?? '').not.toBe('');
    expect(h.controller.interrupt()).toBe(true);
    expect(await turn).toBe('idle');

    expect(h.toolItems()).toHaveLength(1);
    expect(h.notices().at(-1)).toBe('Reply interrupted; the partial reply is kept.');
    expect(h.items().some((item) => item.kind === 'assistant' && item.interrupted)).toBe(true);
    expect(h.chatRequests()).toHaveLength(2);

    expect(await h.send('go on')).toBe('idle');
    const messages = h.chatRequests()[2].body.messages as ChatMessageLike[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'Echo: go on' });
  });
});

describe('/tools and /last-tool', () => {
  it('/tools lists the tools; /tools off read_file removes it from the next request', async () => {
    const h = await open();
    await h.send('/tools');
    const listing = h.notices().at(-1)!;
    expect(listing).toMatch(/^Tools:/);
    for (const name of ALL_TOOLS) expect(listing).toMatch(new RegExp(`● ${name}\\b`));
    // A long description wraps in its own column: read the rows of run_command as one line.
    expect(listing.replace(/\n {6,}/g, ' ')).toMatch(/run_command .*\(asks first\)/);

    await h.send('/tools off read_file');
    expect(h.notices().at(-1)).toBe('read_file disabled.');
    await h.send('/tools');
    expect(h.notices().at(-1)).toMatch(/○ read_file\b/);

    await h.send('hi');
    const tools = offeredTools(h.chatRequests().at(-1)!.body);
    expect(tools).toEqual(ALL_TOOLS.filter((name) => name !== 'read_file'));

    // A call to the disabled tool is refused as a result, not run.
    writeFileSync(join(h.cwd, 'notes.txt'), 'alpha');
    h.emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { content: 'Hm.' },
    );
    await h.send('read it anyway');
    const [result] = h.toolMessages(h.chatRequests().at(-1)!);
    expect(result.content).toMatch(/^Error: tool "read_file" is disabled/);

    await h.send('/tools on read_file');
    await h.send('again');
    expect(offeredTools(h.chatRequests().at(-1)!.body)).toEqual(ALL_TOOLS);
  });

  it('/last-tool shows the full output; output over max_output_chars is capped only in the request', async () => {
    const h = await open({ tools: { max_output_chars: 600 } });
    const text = numberedLines(200, 10);
    writeFileSync(join(h.cwd, 'big.txt'), text);
    h.emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] },
      { content: 'A long file.' },
    );
    await h.send('read big.txt');

    const [sent] = h.toolMessages(h.chatRequests()[1]);
    const content = String(sent.content);
    expect(content.length).toBeLessThanOrEqual(600);
    expect(content).toMatch(/\[… [\d,]+ characters cut …\]/);
    expect(content.startsWith('line 1 ')).toBe(true);
    expect(content.endsWith(`line 200 ${'x'.repeat(10)}`)).toBe(true);
    expect(content).not.toContain('line 100 ');

    await h.send('/last-tool');
    const shown = h.notices().at(-1)!;
    expect(shown).toBe(`Output of read_file:\n${text}`);
  });

  it('/last-tool says so when no tool has run', async () => {
    const h = await open();
    await h.send('/last-tool');
    expect(h.notices().at(-1)).toBe('No tool has run in this conversation.');
  });
});
