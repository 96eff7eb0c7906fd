import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ToolCall } from '../../src/conversation/message.js';
import { createConfirmationPolicy } from '../../src/tools/confirmation.js';
import { type ConfirmAnswer, DECLINED_OUTPUT, executeToolCall } from '../../src/tools/execute.js';
import { BUILTIN_TOOLS, createToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/tool.js';
import { makeContext, makeTempDir } from './temp-sandbox.js';

const explodingTool: Tool = {
  name: 'explode',
  description: 'always throws',
  parameters: { type: 'object', properties: {} },
  keyArgument: () => 'kaboom',
  run: async () => {
    throw new Error('disk on fire');
  },
  summaryLine: () => 'explode ran',
};

const call = (name: string, args: Record<string, unknown> | string = {}): ToolCall => ({
  function: { name, arguments: args as Record<string, unknown> },
});

function setup(answer: ConfirmAnswer = { kind: 'yes' }) {
  const cwd = makeTempDir();
  const registry = createToolRegistry([...BUILTIN_TOOLS, explodingTool], {
    enabled: ['read_file', 'write_file', 'get_time', 'explode'],
  });
  const policy = createConfirmationPolicy(['write_file']);
  const confirm = vi.fn(async () => answer);
  const deps = { registry, ctx: makeContext(cwd), confirm, ...policy };
  return { cwd, deps, confirm, policy };
}

const writeCall = call('write_file', { path: 'notes.md', content: 'a\nb\n' });

describe('executeToolCall', () => {
  it('answers a malformed call with an error result naming the tools, without running anything', async () => {
    const { deps, confirm } = setup();
    const execution = await executeToolCall(
      {
        function: { name: 'write_file', arguments: {} },
        malformed: 'the arguments are a number (7), not a JSON object',
      },
      deps,
    );
    expect(confirm).not.toHaveBeenCalled();
    expect(execution.outcome).toMatchObject({ ok: false, details: { skipped: 'malformed' } });
    expect(execution.outcome.output).toBe(
      'Error: malformed tool call: the arguments are a number (7), not a JSON object. Call a tool by its name with an object of arguments; available: read_file, get_time, write_file, explode.',
    );
    expect(execution.summary).toBe(
      '❌ malformed call of write_file (the arguments are a number (7), not a JSON object)',
    );
  });

  it('runs a tool that needs no confirmation without asking', async () => {
    const { deps, confirm } = setup();
    const execution = await executeToolCall(call('get_time'), deps);
    expect(confirm).not.toHaveBeenCalled();
    expect(execution).toMatchObject({ name: 'get_time', keyArgument: '', outcome: { ok: true } });
    expect(execution.summary).toBe('time 2026-12-02 14:03 UTC');
  });

  it('asks before a confirmed tool and runs it on "yes"', async () => {
    const { cwd, deps, confirm } = setup({ kind: 'yes' });
    const execution = await executeToolCall(writeCall, deps);
    expect(confirm).toHaveBeenCalledWith({
      tool: 'write_file',
      args: { path: 'notes.md', content: 'a\nb\n' },
      keyArgument: 'notes.md',
      approval: expect.objectContaining({ tool: 'write_file', scope: 'notes.md' }),
      preview: {
        title: 'new file, 2 lines, 4 bytes',
        lines: [
          { kind: 'add', text: 'a' },
          { kind: 'add', text: 'b' },
        ],
        more: 0,
      },
    });
    expect(execution.outcome.ok).toBe(true);
    expect(execution.summary).toBe('wrote notes.md (2 lines)');
    expect(fs.readFileSync(path.join(cwd, 'notes.md'), 'utf8')).toBe('a\nb\n');
  });

  it('does not run on "no" and tells the model the user declined', async () => {
    const { cwd, deps } = setup({ kind: 'no' });
    const execution = await executeToolCall(writeCall, deps);
    expect(execution.outcome).toMatchObject({ ok: false, output: DECLINED_OUTPUT });
    expect(execution.outcome.output).toBe('The user declined to run this tool.');
    expect(execution.summary).toBe('❌ write notes.md (declined by the user)');
    expect(fs.existsSync(path.join(cwd, 'notes.md'))).toBe(false);
  });

  it('runs on "always" and the policy stops asking for that path only', async () => {
    const { cwd, deps, confirm, policy } = setup({ kind: 'always' });
    expect((await executeToolCall(writeCall, deps)).outcome.ok).toBe(true);
    expect(policy.approvals().map((a) => [a.tool, a.scope])).toEqual([['write_file', 'notes.md']]);
    // The same file spelled another way is covered; another file is asked about.
    await executeToolCall(call('write_file', { path: './notes.md', content: 'c\n' }), deps);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(fs.readFileSync(path.join(cwd, 'notes.md'), 'utf8')).toBe('c\n');
    await executeToolCall(call('write_file', { path: 'other.md', content: 'x' }), deps);
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it('"always" on a command approves its leading words, never a compound line', async () => {
    const cwd = makeTempDir();
    const registry = createToolRegistry(BUILTIN_TOOLS, { enabled: ['run_command'] });
    const policy = createConfirmationPolicy(['run_command']);
    const confirm = vi.fn(async (): Promise<ConfirmAnswer> => ({ kind: 'always' }));
    const deps = { registry, ctx: makeContext(cwd), confirm, ...policy };
    await executeToolCall(call('run_command', { command: 'echo first' }), deps);
    expect(confirm.mock.calls[0]).toMatchObject([
      { approval: { tool: 'run_command', scope: 'echo first …' } },
    ]);
    await executeToolCall(call('run_command', { command: 'echo first again' }), deps);
    expect(confirm).toHaveBeenCalledTimes(1);

    await executeToolCall(call('run_command', { command: 'touch danger.txt' }), deps);
    expect(confirm).toHaveBeenCalledTimes(2);
    await executeToolCall(call('run_command', { command: 'echo first; touch danger2.txt' }), deps);
    expect(confirm).toHaveBeenCalledTimes(3);
    // A compound line has no approval to give: "always" runs it once and remembers nothing.
    expect(confirm.mock.calls[2]).toMatchObject([{ approval: null }]);
    expect(policy.approvals().map((a) => a.scope)).toEqual(['echo first …', 'touch …']);
    expect(fs.existsSync(path.join(cwd, 'danger2.txt'))).toBe(true);
    await executeToolCall(call('run_command', { command: 'echo first; touch danger3.txt' }), deps);
    expect(confirm).toHaveBeenCalledTimes(4);
  });

  it("passes the user's instruction to the model instead of running", async () => {
    const { cwd, deps } = setup({ kind: 'instruct', text: 'write it to docs/ instead' });
    const execution = await executeToolCall(writeCall, deps);
    expect(execution.outcome).toMatchObject({
      ok: false,
      output: 'The user did not run the tool and says: write it to docs/ instead',
    });
    expect(execution.summary).toBe('❌ write notes.md (not run, the user said: write it to docs/ instead)');
    expect(fs.existsSync(path.join(cwd, 'notes.md'))).toBe(false);
  });

  it('refuses an unknown tool, naming the available ones', async () => {
    const { deps } = setup();
    const execution = await executeToolCall(call('teleport', { to: 'mars' }), deps);
    expect(execution.outcome.ok).toBe(false);
    expect(execution.outcome.output).toBe(
      'Error: unknown tool "teleport"; available: read_file, get_time, write_file, explode.',
    );
    expect(execution.summary).toBe('teleport was called.');
  });

  it('refuses a disabled tool', async () => {
    const { deps } = setup();
    const execution = await executeToolCall(call('run_command', { command: 'ls' }), deps);
    expect(execution.outcome.output).toContain('tool "run_command" is disabled');
    expect(execution.summary).toBe('❌ ls (tool disabled)');
  });

  it('refuses bad arguments with a message the model can act on, before asking', async () => {
    const { deps, confirm } = setup();
    const execution = await executeToolCall(call('write_file', { path: 'x.md' }), deps);
    expect(confirm).not.toHaveBeenCalled();
    expect(execution.outcome.ok).toBe(false);
    expect(execution.outcome.output).toBe(
      'Error: invalid arguments for write_file: "content" is required (string). Call it again with corrected arguments.',
    );
    expect(execution.summary).toBe('❌ write x.md (invalid arguments)');
  });

  it('accepts arguments sent as a JSON string and coerces quoted numbers', async () => {
    const { cwd, deps } = setup();
    fs.writeFileSync(path.join(cwd, 'a.txt'), '1\n2\n3\n');
    const execution = await executeToolCall(call('read_file', '{"path":"a.txt","offset":"2"}'), deps);
    expect(execution.args).toEqual({ path: 'a.txt', offset: 2 });
    expect(execution.summary).toBe('read a.txt (lines 2–3 of 3)');
  });

  it('turns a throwing tool into an error outcome', async () => {
    const { deps } = setup();
    const execution = await executeToolCall(call('explode'), deps);
    expect(execution.outcome).toMatchObject({ ok: false, output: 'Error: explode failed: disk on fire' });
    expect(execution.keyArgument).toBe('kaboom');
    expect(execution.summary).toBe('explode ran');
  });

  it('turns a throwing confirmer into an error outcome and does not run', async () => {
    const { cwd, deps } = setup();
    const execution = await executeToolCall(writeCall, {
      ...deps,
      confirm: async () => {
        throw new Error('dialog closed');
      },
    });
    expect(execution.outcome.ok).toBe(false);
    expect(fs.existsSync(path.join(cwd, 'notes.md'))).toBe(false);
  });

  it('does not run when the signal has already aborted', async () => {
    const { cwd, deps } = setup();
    const controller = new AbortController();
    controller.abort();
    const execution = await executeToolCall(writeCall, {
      ...deps,
      ctx: { ...deps.ctx, signal: controller.signal },
    });
    expect(execution.summary).toBe('❌ write notes.md (cancelled)');
    expect(fs.existsSync(path.join(cwd, 'notes.md'))).toBe(false);
  });
});
