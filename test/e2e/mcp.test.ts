/**
 * MCP end to end: the built CLI in a PTY (colours on, no CI variable) with the real everything
 * server over stdio, the model in the emulator calling its tools.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { STDERR_BYTES_PER_WINDOW, STDERR_WINDOW_MS } from '../../src/mcp/stderr-tail.js';
import { runOchat } from '../support/e2e-process.js';
import type { ChatRequestRecord } from '../support/emulator.js';
import { startEmulator } from '../support/emulator.js';
import { EVERYTHING_SERVER, FAULT_SERVER, FILESYSTEM_SERVER, mcpConfig } from '../support/mcp-servers.js';
import { peakRssMb } from '../support/process-memory.js';
import { wrapped } from '../support/pty-session.js';
import { startToolRun, type ToolRun, toolMessagesOf } from '../support/tools-e2e.js';
import { deliberatePause, waitUntil } from '../support/wait-until.js';

const everything = EVERYTHING_SERVER;
const fault = FAULT_SERVER;

/** PIDs of the MCP server processes started by `pid`. */
function serverChildren(pid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => /server-everything|fault-mcp-server/.test(line))
    .map((line) => Number.parseInt(line.trim(), 10));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const toolNames = (request: ChatRequestRecord) =>
  ((request.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

/** Types /mcp until its list matches `pattern` (a listing is drawn once; servers change meanwhile). */
async function waitForMcp(r: ToolRun, pattern: RegExp | string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    r.pty.write('/mcp\r');
    try {
      await r.pty.waitFor(pattern, 500);
      return;
    } catch (error) {
      if (attempt >= 40) throw error;
    }
  }
}

let run: ToolRun | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('MCP servers in the chat', () => {
  test('the model calls everything__echo: asked first with the exact name and arguments, one tool line, the result sent back; /mcp lists it; no orphan after /quit', async () => {
    run = await startToolRun({ config: mcpConfig({ everything: [everything, 'stdio'] }) });
    const { emu, pty } = run;
    await waitForMcp(run, 'everything — ready, 13 tools');
    expect(pty.screen()).toMatch(/everything__get-sum\s+Returns the sum of two numbers/);

    emu.enqueue(
      { toolCalls: [{ name: 'everything__echo', arguments: { message: 'MCP-ECHO-42' } }] },
      { content: 'The server echoed it.' },
    );
    pty.write('echo something\r');
    await pty.waitFor('? Allow everything__echo {"message":"MCP-ECHO-42"}?');
    await pty.answer('y');
    await pty.waitFor('The server echoed it.');
    expect(pty.screen()).toContain(
      '⚙ everything__echo {"message":"MCP-ECHO-42"} — everything__echo: "MCP-ECHO-42" → 1 line',
    );
    const [first, second] = await run.waitForRequests(2);
    expect(toolNames(first)).toEqual(
      expect.arrayContaining(['read_file', 'everything__echo', 'everything__get-sum']),
    );
    expect(toolMessagesOf(second)).toEqual([
      { role: 'tool', tool_name: 'everything__echo', content: 'Echo: MCP-ECHO-42' },
    ]);

    const children = serverChildren(pty.pid);
    expect(children).toHaveLength(1);
    pty.write('/quit\r');
    expect(await pty.exited).toBe(0);
    for (const pid of children) expect(alive(pid), `server pid ${pid} outlived ochat`).toBe(false);
  }, 40_000);

  test('progress in the status line; Ctrl+C cancels a long call within a second (confirm: false runs it without asking)', async () => {
    run = await startToolRun({
      config: mcpConfig({ everything: [everything, 'stdio'] }).replace(
        '    args:',
        '    confirm: false\n    args:',
      ),
    });
    const { emu, pty } = run;
    await waitForMcp(run, 'everything — ready, 13 tools');
    emu.enqueue({
      toolCalls: [
        { name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 30 } },
      ],
    });
    pty.write('run the long one\r');
    await pty.waitFor(/running everything__trigger-long-running-operation… 2\/30/);
    const pressed = Date.now();
    pty.write('\u0003');
    await pty.waitFor('✗ everything__trigger-long-running-operation');
    // The bound is the point: the cancel must not wait out the call's other 28 s. Generous, as a
    // loaded machine delays the key, the notice to the server and the redraw (1 s is too tight there).
    expect(Date.now() - pressed).toBeLessThan(5_000);
    // The line wraps at the terminal's width: read it as one.
    expect(pty.screen().replace(/\s*\n\s*/g, ' ')).toContain(
      'everything__trigger-long-running-operation: duration=30 steps=30 → cancelled',
    );
  }, 40_000);

  test('Ctrl+C on a call sends the server notifications/cancelled with the id of that tools/call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ochat-mcp-record-'));
    const record = join(dir, 'received.jsonl');
    const received = (): { id?: number; method?: string; params?: Record<string, unknown> }[] =>
      existsSync(record)
        ? readFileSync(record, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line))
        : [];
    try {
      run = await startToolRun({
        config: mcpConfig({ slow: [fault, 'slow', `--record=${record}`] }).replace(
          '    args:',
          '    confirm: false\n    args:',
        ),
      });
      const { emu, pty } = run;
      await waitForMcp(run, 'slow — ready, 2 tools');
      emu.enqueue({ toolCalls: [{ name: 'slow__wait', arguments: {} }] });
      pty.write('wait for it\r');
      await waitUntil('the call reached the server', () => received().some((m) => m.method === 'tools/call'));
      pty.write('\u0003');
      await pty.waitFor('✗ slow__wait');
      const call = received().find((m) => m.method === 'tools/call');
      await waitUntil('the cancellation reached the server', () =>
        received().some((m) => m.method === 'notifications/cancelled'),
      );
      const cancelled = received().find((m) => m.method === 'notifications/cancelled');
      expect(call?.id).toEqual(expect.any(Number));
      expect(cancelled?.params?.requestId).toBe(call?.id);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  test('a server that never answers initialize and one that exits at once do not hold up the first reply; /mcp says why', async () => {
    run = await startToolRun({ config: mcpConfig({ hang: [fault, 'hang'], broken: [fault, 'exit'] }) });
    const { pty } = run;
    pty.write('hello\r');
    await pty.waitFor('Echo: hello', 3000);
    await waitForMcp(run, '✗ broken — failed: ');
    expect(pty.screen()).toContain('○ hang — connecting…');
    expect(pty.screen()).toContain('      fatal: cannot open the database');
  }, 30_000);

  test('a server that dies mid-call is reported once and a restart is offered: y starts it again, n leaves it stopped', async () => {
    run = await startToolRun({
      config: mcpConfig({ frail: [fault, 'die'] }).replace('    args:', '    confirm: false\n    args:'),
    });
    const { emu, pty } = run;
    await waitForMcp(run, 'frail — ready, 2 tools');
    const crash = () => {
      emu.enqueue({ toolCalls: [{ name: 'frail__crash', arguments: {} }] }, { content: 'The tool broke.' });
      pty.write('crash it\r');
    };
    const flat = () => pty.screen().replace(/\s*\n\s*/g, ' ');
    const count = (phrase: string) => flat().split(phrase).length - 1;

    crash();
    await pty.waitFor('? Restart MCP server frail? (y/n)');
    expect(flat()).toContain(
      'MCP server frail stopped (the server closed the connection); its tools answer with an error.',
    );
    // Offered once the reply is over: the model was told of the error and answered first.
    expect(pty.screen()).toContain('The tool broke.');
    expect(String(toolMessagesOf(emu.chats[1])[0]?.content)).toMatch(/^Error: frail__crash failed/);
    await pty.answer('y');
    await pty.waitFor('frail: ready, 2 tools.');

    // Its second death is its own: told and asked again; n leaves it stopped.
    crash();
    await waitUntil('the second death told', () => count('MCP server frail stopped') === 2);
    await pty.waitFor('? Restart MCP server frail? (y/n)');
    await pty.answer('n');
    await pty.waitFor('frail stays stopped; /mcp restart frail starts it later.');
    await waitForMcp(run, '✗ frail — failed: the server closed the connection');
    expect(count('MCP server frail stopped')).toBe(2);
    expect(count('Restart MCP server frail?')).toBeLessThanOrEqual(2);
  }, 40_000);

  test('a 50 MB result: said to be over the limit, and the server is kept (no "stopped", no restart offer); its next call is answered', async () => {
    run = await startToolRun({
      config: mcpConfig({ big: [fault, 'big'] }).replace('    args:', '    confirm: false\n    args:'),
    });
    const { emu, pty } = run;
    await waitForMcp(run, 'big — ready, 2 tools');
    emu.enqueue(
      { toolCalls: [{ name: 'big__big', arguments: {} }] },
      { content: 'It was too big.' },
      { toolCalls: [{ name: 'big__echo', arguments: { text: 'still-here' } }] },
      { content: 'It echoed.' },
    );
    pty.write('get the big one\r');
    await pty.waitFor('It was too big.', 30_000);
    const flat = () => pty.screen().replace(/\s*\n\s*/g, ' ');
    expect(flat()).toContain('error: big__big failed: the result was 52 MB, over the 10 MB limit');
    expect(String(toolMessagesOf(emu.chats[1])[0]?.content)).toMatch(
      /^Error: big__big failed: .*the result was 52 MB, over the 10 MB limit of one MCP message: it was dropped, and the server keeps running/,
    );
    expect(flat()).not.toMatch(/stopped|closed the connection|Restart MCP server/);
    pty.write('and a small one\r');
    await pty.waitFor('It echoed.');
    expect(toolMessagesOf(emu.chats[3]).at(-1)).toEqual({
      role: 'tool',
      tool_name: 'big__echo',
      content: 'echo: still-here',
    });
    await waitForMcp(run, 'big — ready, 2 tools');
  }, 60_000);

  test('a server that floods stderr without end is read at a bounded pace (its writes wait); /mcp says how much was dropped', async () => {
    run = await startToolRun({ config: mcpConfig({ loud: [fault, 'spew'] }) });
    const { pty } = run;
    await waitForMcp(run, 'loud — ready, 1 tool');
    const [server] = serverChildren(pty.pid);
    // What the server wrote is what ochat read of it, less the pipe's 64 kB.
    const written = () => Number(/wchar:\s*(\d+)/.exec(readFileSync(`/proc/${server}/io`, 'utf8'))?.[1]);
    const before = written();
    const started = Date.now();
    await deliberatePause(2000, 'two seconds of a server writing stderr as fast as ochat reads it');
    const seconds = (Date.now() - started) / 1000;
    const pace = (STDERR_BYTES_PER_WINDOW * 1000) / STDERR_WINDOW_MS;
    expect(written() - before).toBeLessThan(pace * (seconds + 0.5));
    await waitForMcp(run, /\d+ MB of stderr, all but the last 12 lines dropped/);
    expect(pty.screen().replace(/\s*\n\s*/g, ' ')).toContain(
      'it writes faster than ochat reads it (2.6 MB/s), so its writes wait',
    );
  }, 40_000);

  test('10,000 tools: 1,000 kept and said so; /mcp and /tools list a bounded number and count the rest; memory stays bounded', async () => {
    run = await startToolRun({ config: mcpConfig({ many: [fault, 'many', '--tools=10000'] }) });
    const { pty } = run;
    await waitForMcp(run, 'many — ready, 1,000 of the 10,000 tools it lists (the rest are not kept)');
    const flat = () => pty.screen().replace(/\s*\n\s*/g, ' ');
    expect(flat()).toContain('many__tool_00049');
    expect(flat()).toContain('… and 950 more (/tools on|off <name> takes any of them)');
    expect(flat()).not.toContain('many__tool_00050');
    pty.write('/tools\r');
    await pty.waitFor(/… and [\d,]+ more \(\/mcp counts them by server; \/tools on\|off <name> takes any\)/);
    // Held and drawn, 10,000 tools took 548 MB by the time the server was ready, 1.1-1.9 GB once listed.
    expect(peakRssMb(pty.pid)).toBeLessThan(300);
  }, 60_000);

  test("a server whose tool list breaks the MCP schema: /mcp says what is wrong in words, not zod's issue list", async () => {
    run = await startToolRun({ config: mcpConfig({ odd: [fault, 'invalid'] }) });
    await waitForMcp(run, '✗ odd — failed: ');
    const flat = run.pty.screen().replace(/\s*\n\s*/g, ' ');
    expect(flat).toContain(
      "the server's answer to tools/list does not follow MCP: tools[1].name: expected string, received number; tools[1].inputSchema: expected object, received undefined;",
    );
    expect(flat).not.toMatch(/invalid_type|"expected"|\[ \{/);
  }, 30_000);

  test('.mcp.json is used only once approved, its command line shown; the approval is kept until the file changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ochat-mcp-json-'));
    const home = mkdtempSync(join(tmpdir(), 'ochat-mcp-home-'));
    const mcpJson = (args: string[]) =>
      JSON.stringify({ mcpServers: { proj: { type: 'stdio', command: process.execPath, args } } });
    try {
      writeFileSync(join(dir, '.mcp.json'), mcpJson([fault, 'changing']));
      run = await startToolRun({ cwd: dir, home, oneShot: true });
      await run.pty.waitFor(
        '? Start these MCP servers? The answer is kept for this .mcp.json as it is now (y/n)',
      );
      expect(run.pty.screen()).toContain('.mcp.json starts these MCP servers:');
      // The command line wraps at the terminal's width where the checkout's path is long (as on CI).
      expect(run.pty.screen()).toMatch(wrapped(`proj: ${process.execPath} ${fault} changing`));
      await run.pty.answer('y');
      // A "yes" is said as a "no" is.
      await run.pty.waitFor(wrapped('the approval is kept until the file changes (/mcp shows them).'));
      // Typed at once, /mcp would arrive in the same chunk as the answer, which then is typing.
      await waitUntil(
        'the question answered',
        () => !run?.pty.screen().includes('? Start these MCP servers?'),
      );
      await waitForMcp(run, /proj \(\.mcp\.json\) — ready, [12] tools?/);
      run.pty.write('/quit\r');
      await run.pty.exited;
      await run.close();

      // Same directory, same file: no question.
      run = await startToolRun({ cwd: dir, home });
      await waitForMcp(run, /proj \(\.mcp\.json\) — ready/);
      expect(run.pty.screen()).not.toContain('starts these MCP servers');
      run.pty.write('/quit\r');
      await run.pty.exited;
      await run.close();

      // A changed file is asked about again; "n" starts nothing.
      writeFileSync(join(dir, '.mcp.json'), mcpJson([fault, 'many']));
      run = await startToolRun({ cwd: dir, home, oneShot: true });
      await run.pty.waitFor('? Start these MCP servers?');
      expect(run.pty.screen()).toMatch(wrapped(`${fault} many`));
      await run.pty.answer('n');
      await run.pty.waitFor('Not starting the servers of');
    } finally {
      await run?.close();
      run = undefined;
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the tool-definition budget', () => {
  test('200 tools at num_ctx 4096: told once, the rest deferred behind find_tools, and what it finds is sent from the next request on', async () => {
    run = await startToolRun({ config: mcpConfig({ many: [fault, 'many'] }), args: ['--num-ctx', '4096'] });
    const { emu, pty } = run;
    await waitForMcp(run, 'many — ready, 200 tools');
    // The notice wraps at the terminal's width: read it as one line.
    const flat = () => pty.screen().replace(/\s*\n\s*/g, ' ');
    await waitUntil('the deferral told', () =>
      flat().includes('deferred, found by the model with find_tools'),
    );
    expect(flat()).toMatch(
      /MCP: 200 tools, ~[\d.]+k tokens with the 6 built-ins = \d+% of the 4k window \(over tools\.max_definitions_share, 25%\); \d+ deferred, found by the model with find_tools\./,
    );
    emu.enqueue(
      { toolCalls: [{ name: 'find_tools', arguments: { query: 'tool_150' } }] },
      { toolCalls: [{ name: 'many__tool_150', arguments: { path: 'a.txt' } }] },
      { content: 'Done.' },
    );
    pty.write('use tool 150\r');
    await pty.waitFor('? Allow many__tool_150 {"path":"a.txt"}?');
    await pty.answer('y');
    await pty.waitFor('Done.');
    // Its server's name for the tool: that one tool.
    expect(pty.screen()).toContain('⚙ find_tools tool_150 — find_tools: "tool_150" → 1 found');
    const [first, second, third] = await run.waitForRequests(3);
    const sent = toolNames(first);
    expect(sent).toContain('find_tools');
    expect(sent).toContain('read_file');
    expect(sent).not.toContain('many__tool_150');
    expect(sent.length).toBeLessThan(206);
    // What is sent stays near 25% of the window (~4 characters a token), far below all 206.
    expect(JSON.stringify(first.body.tools).length / 4).toBeLessThan(0.3 * 4096);
    expect(toolNames(second)).toContain('many__tool_150');
    expect(String(toolMessagesOf(second)[0]?.content).split('\n')[1]).toBe(
      '- many__tool_150: Tool number 150: does thing 150 to a document and reports what changed in it.',
    );
    expect(toolMessagesOf(third).at(-1)?.content).toBe('echo: undefined');
    // Told once only.
    expect(flat().match(/deferred, found by the model with find_tools/g)).toHaveLength(1);
  }, 40_000);
});

/** The six built-in tools every request should carry while they fit the share on their own. */
const BUILT_INS = ['read_file', 'list_directory', 'search_files', 'get_time', 'write_file', 'run_command'];

describe('finding MCP tools at a small window (two real servers, 27 tools, num_ctx 4096)', () => {
  test('an exact name brings that one tool; the built-ins stay in every request; found tools rank below used ones; what is deferred is said', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ochat-find-tools-'));
    try {
      writeFileSync(join(dir, 'billing.js'), 'export const total = 42;\n');
      run = await startToolRun({
        cwd: dir,
        config: mcpConfig({ everything: [everything, 'stdio'], filesystem: [FILESYSTEM_SERVER, dir] }),
        args: ['--num-ctx', '4096'],
      });
      const { emu, pty } = run;
      await waitForMcp(run, /filesystem — ready, 1\d tools/);
      await waitForMcp(run, 'everything — ready, 13 tools');
      const flat = () => pty.screen().replace(/\s*\n\s*/g, ' ');
      await waitUntil('the deferral told', () =>
        flat().includes('deferred, found by the model with find_tools'),
      );
      // Told once every server is up, with all their tools counted.
      expect(flat()).toMatch(/MCP: 2\d tools, ~[\d.]+k tokens with the 6 built-ins/);

      emu.enqueue(
        { toolCalls: [{ name: 'find_tools', arguments: { query: 'get-sum' } }] },
        { toolCalls: [{ name: 'everything__get-sum', arguments: { a: 40, b: 2 } }] },
        { content: 'It is 42.' },
      );
      pty.write('add 40 and 2\r');
      await pty.waitFor('? Allow everything__get-sum {"a":40,"b":2}?');
      await pty.answer('y');
      await pty.waitFor('It is 42.');
      expect(flat()).toContain('find_tools: "get-sum" → 1 found');

      emu.enqueue(
        { toolCalls: [{ name: 'find_tools', arguments: { query: 'read_text_file' } }] },
        { content: 'Found a reader.' },
      );
      pty.write('find a file reader\r');
      await pty.waitFor('Found a reader.');
      expect(flat()).toContain('find_tools: "read_text_file" → 1 found');

      emu.enqueue(
        { toolCalls: [{ name: 'read_file', arguments: { path: 'billing.js' } }] },
        { content: 'Read.' },
      );
      pty.write('please read billing.js\r');
      await pty.waitFor('Read.');
      const requests = await run.waitForRequests(6);
      for (const [index, request] of requests.entries()) {
        expect(toolNames(request), `request ${index + 1}`).toEqual(expect.arrayContaining(BUILT_INS));
      }
      const last = toolNames(requests.at(-1) as ChatRequestRecord);
      // Used, then found: both still sent.
      expect(last).toContain('everything__get-sum');
      expect(last).toContain('filesystem__read_text_file');
      expect(toolMessagesOf(requests.at(-1) as ChatRequestRecord).at(-1)?.content).toContain('total = 42');
      // Whatever a find pushed out was said, by name.
      const sentBefore = new Set(toolNames(requests[0] as ChatRequestRecord));
      const dropped = [...sentBefore].filter((name) => !last.includes(name));
      for (const name of dropped) expect(flat()).toMatch(new RegExp(`no longer sent[^]*${name}`));
    } finally {
      await run?.close();
      run = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('resuming a chat whose tool definitions are deferred', () => {
  test('-r sends the same tools (what find_tools found is kept) and the meter reads as before quitting', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ochat-mcp-home-'));
    const cwd = mkdtempSync(join(tmpdir(), 'ochat-mcp-resume-'));
    const config = mcpConfig({ many: [fault, 'many'] });
    /** The status line's meter, `1.4k/4k (34%)`. */
    const meter = (r: ToolRun) =>
      r.pty
        .screen()
        .match(/[\d.]+k?\/4k \(\d+%\)/g)
        ?.at(-1);
    try {
      run = await startToolRun({ config, args: ['--num-ctx', '4096'], home, cwd });
      await waitForMcp(run, 'many — ready, 200 tools');
      run.emu.enqueue(
        { toolCalls: [{ name: 'find_tools', arguments: { query: 'tool_150' } }] },
        { content: 'Found it.' },
        { content: 'Second reply.' },
      );
      run.pty.write('find tool 150\r');
      await run.pty.waitFor('Found it.');
      run.pty.write('and now?\r');
      await run.pty.waitFor('Second reply.');
      const before = run.chatRequests().at(-1) as ChatRequestRecord;
      expect(toolNames(before)).toContain('many__tool_150');
      const meterBefore = meter(run);
      expect(meterBefore).toBeDefined();
      run.pty.write('/quit\r');
      await run.pty.exited;
      const id = run.pty.screen().match(/To continue this session: ochat -r (\S+)/)?.[1];
      expect(id).toBeDefined();
      await run.close();

      run = await startToolRun({ config, args: ['-r', String(id)], home, cwd });
      await waitForMcp(run, 'many — ready, 200 tools');
      await waitUntil('the meter as it was', () => meter(run as ToolRun) === meterBefore, {
        describe: () => `Before quitting ${meterBefore}, now ${meter(run as ToolRun)}.`,
      });
      run.emu.enqueue({ content: 'Third reply.' });
      run.pty.write('and after the resume?\r');
      await run.pty.waitFor('Third reply.');
      const [after] = await run.waitForRequests(1);
      expect(toolNames(after)).toEqual(toolNames(before));
    } finally {
      await run?.close();
      run = undefined;
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('resuming a chat with two real MCP servers whose tools were found (num_ctx 4096)', () => {
  test('after -r the meter and /context read exactly as before quitting, and the request carries the same tools', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ochat-mcp-home-'));
    const cwd = mkdtempSync(join(tmpdir(), 'ochat-mcp-resume-'));
    writeFileSync(join(cwd, 'billing.js'), 'export const total = 42;\n'.repeat(20));
    const config = mcpConfig({ everything: [everything, 'stdio'], filesystem: [FILESYSTEM_SERVER, cwd] });
    const meter = (r: ToolRun) =>
      r.pty
        .screen()
        .match(/[\d.]+k?\/4k \(\d+%\)/g)
        ?.at(-1);
    /** The rows of the last /context, figures and all. */
    const context = async (r: ToolRun) => {
      r.pty.write('/context\r');
      await r.pty.waitFor(/Context window[\s\S]*free .*\n/);
      const screen = r.pty.screen();
      return screen.slice(screen.lastIndexOf('Context window')).split('\n').slice(0, 8).join('\n');
    };
    const bothUp = async (r: ToolRun) => {
      await waitForMcp(r, /filesystem — ready, 1\d tools/);
      await waitForMcp(r, 'everything — ready, 13 tools');
    };
    try {
      run = await startToolRun({ config, args: ['--num-ctx', '4096'], home, cwd });
      await bothUp(run);
      run.emu.enqueue(
        { toolCalls: [{ name: 'find_tools', arguments: { query: 'get-sum' } }] },
        { toolCalls: [{ name: 'everything__get-sum', arguments: { a: 40, b: 2 } }] },
        { content: 'It is 42.' },
        { toolCalls: [{ name: 'find_tools', arguments: { query: 'read_text_file' } }] },
        { content: 'Found a reader.' },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'billing.js' } }] },
        { content: 'Read.' },
      );
      run.pty.write('add 40 and 2\r');
      await run.pty.waitFor('? Allow everything__get-sum');
      await run.pty.answer('y');
      await run.pty.waitFor('It is 42.');
      run.pty.write('find a file reader\r');
      await run.pty.waitFor('Found a reader.');
      run.pty.write('please read billing.js\r');
      await run.pty.waitFor('Read.');
      const before = (await run.waitForRequests(7)).at(-1) as ChatRequestRecord;
      const meterBefore = meter(run);
      const contextBefore = await context(run);
      expect(meterBefore).toBeDefined();
      run.pty.write('/quit\r');
      await run.pty.exited;
      const id = run.pty.screen().match(/To continue this session: ochat -r (\S+)/)?.[1];
      expect(id).toBeDefined();
      await run.close();

      run = await startToolRun({ config, args: ['-r', String(id)], home, cwd });
      await bothUp(run);
      // Before the found tools were saved with the session: 47% before quitting, 48% after.
      await waitUntil('the meter as before quitting', () => meter(run as ToolRun) === meterBefore, {
        describe: () => `Before quitting ${meterBefore}, now ${meter(run as ToolRun)}.`,
      });
      expect(await context(run)).toBe(contextBefore);
      run.emu.enqueue({ content: 'After the resume.' });
      run.pty.write('and now?\r');
      await run.pty.waitFor('After the resume.');
      const [after] = await run.waitForRequests(1);
      expect(toolNames(after)).toEqual(toolNames(before));
      expect(after.body.messages.slice(0, before.body.messages.length)).toEqual(before.body.messages);
    } finally {
      await run?.close();
      run = undefined;
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('MCP servers in a one-shot (-p)', () => {
  test('waits for the servers before the first request, runs the call with -y, and ends the servers with it', async () => {
    const emu = await startEmulator({
      tokensPerSecond: Number.POSITIVE_INFINITY,
      models: [{ name: 'toolbot:latest', capabilities: ['completion', 'tools'] }],
    });
    const dir = mkdtempSync(join(tmpdir(), 'ochat-mcp-oneshot-'));
    try {
      const config = join(dir, 'config.yml');
      writeFileSync(
        config,
        mcpConfig(
          { everything: [everything, 'stdio'], hang: [fault, 'hang', dir] },
          'mcp_start_timeout_s: 3\n',
        ),
      );
      emu.enqueue(
        { toolCalls: [{ name: 'everything__get-sum', arguments: { a: 40, b: 2 } }] },
        { content: 'It is 42.' },
      );
      const started = Date.now();
      // The hanging server runs while ochat does (its marker: the directory as an extra argument).
      const running = () =>
        execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
          .split('\n')
          .filter((line) => line.includes(fault) && line.includes(dir));
      let seenRunning = false;
      const watch = setInterval(() => {
        if (running().length > 0) seenRunning = true;
      }, 200);
      const result = await runOchat(['-m', 'toolbot', '-c', config, '-y', '-p', 'add 40 and 2'], {
        env: { OLLAMA_HOST: emu.url },
        timeoutMs: 30_000,
      });
      expect(result.stdout).toBe('It is 42.\n');
      expect(result.stderr).toContain(
        '⚙ everything__get-sum {"a":40,"b":2} — everything__get-sum: a=40 b=2 → 1 line',
      );
      expect(result.code).toBe(0);
      // The hanging server is waited for at most mcp_start_timeout_s.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(toolNames(emu.chats[0])).toContain('everything__get-sum');
      expect(String(toolMessagesOf(emu.chats[1])[0]?.content)).toContain('42');
      clearInterval(watch);
      expect(seenRunning).toBe(true);
      expect(running()).toEqual([]);
    } finally {
      await emu.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  test('the tool-definition budget is told once every server is up, counting all their tools, not those of the first one ready', async () => {
    const emu = await startEmulator({
      tokensPerSecond: Number.POSITIVE_INFINITY,
      models: [{ name: 'toolbot:latest', capabilities: ['completion', 'tools'] }],
    });
    const dir = mkdtempSync(join(tmpdir(), 'ochat-mcp-oneshot-'));
    try {
      const config = join(dir, 'config.yml');
      // The everything server is up long before the slow one: its 13 tools alone are over the share.
      writeFileSync(
        config,
        mcpConfig({ everything: [everything, 'stdio'], many: [fault, 'many', '--start-delay=1500'] }),
      );
      emu.enqueue({ content: 'Fine.' });
      const result = await runOchat(['-m', 'toolbot', '--num-ctx', '4096', '-c', config, '-p', 'hello'], {
        env: { OLLAMA_HOST: emu.url },
        timeoutMs: 30_000,
      });
      expect(result.stdout).toBe('Fine.\n');
      expect(result.stderr.match(/^warning: MCP: \d+ tools/gm)).toEqual(['warning: MCP: 213 tools']);
    } finally {
      await emu.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  test('an approved .mcp.json is used whether the model is named with -m or by the config (the approval is read either way)', async () => {
    const emu = await startEmulator({
      tokensPerSecond: Number.POSITIVE_INFINITY,
      models: [{ name: 'toolbot:latest', capabilities: ['completion', 'tools'] }],
    });
    const dir = mkdtempSync(join(tmpdir(), 'ochat-mcp-oneshot-'));
    const home = mkdtempSync(join(tmpdir(), 'ochat-mcp-home-'));
    try {
      const text = JSON.stringify({
        mcpServers: { proj: { type: 'stdio', command: process.execPath, args: [everything, 'stdio'] } },
      });
      writeFileSync(join(dir, '.mcp.json'), text);
      // What approving it in the chat keeps (test/config/app-state.test.ts covers the writing).
      mkdirSync(join(home, 'data/ochat'), { recursive: true });
      const hash = createHash('sha256').update(text).digest('hex');
      writeFileSync(join(home, 'data/ochat/state.json'), JSON.stringify({ mcpApprovals: { [dir]: hash } }));
      const named = join(home, 'named.yml');
      writeFileSync(named, 'model: toolbot\n');
      for (const args of [
        ['-m', 'toolbot'],
        ['-c', named],
      ]) {
        emu.chats.length = 0;
        emu.enqueue(
          { toolCalls: [{ name: 'proj__get-sum', arguments: { a: 40, b: 2 } }] },
          { content: 'It is 42.' },
        );
        const result = await runOchat([...args, '-y', '-p', 'add 40 and 2'], {
          cwd: dir,
          env: { OLLAMA_HOST: emu.url, XDG_DATA_HOME: join(home, 'data') },
          timeoutMs: 30_000,
        });
        expect(result.stderr, args.join(' ')).not.toContain('not approved');
        expect(result.stdout, args.join(' ')).toBe('It is 42.\n');
        expect(toolNames(emu.chats[0])).toContain('proj__get-sum');
        expect(String(toolMessagesOf(emu.chats[1])[0]?.content)).toContain('42');
      }
    } finally {
      await emu.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);

  test('without -y the call is not run, and the model and stderr say -y allows it (nobody declined)', async () => {
    const emu = await startEmulator({
      tokensPerSecond: Number.POSITIVE_INFINITY,
      models: [{ name: 'toolbot:latest', capabilities: ['completion', 'tools'] }],
    });
    const dir = mkdtempSync(join(tmpdir(), 'ochat-mcp-oneshot-'));
    try {
      const config = join(dir, 'config.yml');
      writeFileSync(config, mcpConfig({ everything: [everything, 'stdio'] }));
      emu.enqueue(
        { toolCalls: [{ name: 'everything__echo', arguments: { message: 'x' } }] },
        { content: 'Declined.' },
      );
      const result = await runOchat(['-m', 'toolbot', '-c', config, '-p', 'echo x'], {
        env: { OLLAMA_HOST: emu.url },
        timeoutMs: 30_000,
      });
      expect(result.stdout).toBe('Declined.\n');
      const told = toolMessagesOf(emu.chats[1])[0]?.content;
      expect(told).toMatch(/^Not run: this tool needs the user's confirmation/);
      expect(told).toContain('the user did not decline');
      expect(result.stderr).toContain('-y allows it');
    } finally {
      await emu.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
