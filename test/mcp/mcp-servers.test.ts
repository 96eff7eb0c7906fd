import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type McpServerConfig, mcpServerSchema } from '../../src/config/mcp-servers-schema.js';
import { McpServers } from '../../src/mcp/mcp-servers.js';
import type { Tool, ToolContext } from '../../src/tools/tool.js';
import { EVERYTHING_SERVER, FAULT_SERVER, FILESYSTEM_SERVER } from '../support/mcp-servers.js';
import { waitUntil } from '../support/wait-until.js';

const root = resolve(import.meta.dirname, '../..');
const everything = EVERYTHING_SERVER;
const filesystem = FILESYSTEM_SERVER;
const fault = FAULT_SERVER;

function stdio(script: string, ...args: string[]): McpServerConfig {
  return mcpServerSchema.parse({ command: process.execPath, args: [script, ...args] });
}

const ctx = (extra: Partial<ToolContext> = {}): ToolContext => ({
  cwd: root,
  allowedPaths: [],
  commandTimeoutMs: 10_000,
  now: () => new Date(),
  ...extra,
});

let servers: McpServers | undefined;
afterEach(async () => {
  await servers?.shutdown();
  servers = undefined;
});

function startServers(configs: Record<string, McpServerConfig>, connectTimeoutMs?: number) {
  const lost: string[] = [];
  let tools: Tool[] = [];
  const s = new McpServers({
    servers: configs,
    env: process.env,
    cwd: root,
    version: 'test',
    reservedNames: ['read_file'],
    onTools: (list) => {
      tools = list;
    },
    onLost: (server, reason) => lost.push(`${server}: ${reason}`),
    connectTimeoutMs,
  });
  servers = s;
  const started = s.start();
  return { s, started, lost, tools: () => tools, tool: (name: string) => tools.find((t) => t.name === name) };
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('McpServers against the real everything and filesystem servers (stdio)', () => {
  it('lists the tools as <server>__<tool>, calls echo and get-sum, and renders an image as text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ochat-mcp-fs-'));
    writeFileSync(join(dir, 'note.txt'), 'MCP-FS-NOTE-7\n');
    try {
      const run = startServers({ everything: stdio(everything, 'stdio'), fs: stdio(filesystem, dir) });
      await run.started;
      const [ev, fs] = run.s.list();
      expect(ev.state).toEqual({ kind: 'ready', tools: 13 });
      expect(fs.state.kind).toBe('ready');
      expect(ev.endpoint).toBe(`stdio: ${process.execPath} ${everything} stdio`);
      const names = run.tools().map((t) => t.name);
      expect(names).toContain('everything__echo');
      expect(names).toContain('everything__get-sum');
      expect(names).toContain('fs__read_text_file');
      expect(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n))).toBe(true);

      const echo = run.tool('everything__echo');
      expect(echo?.parameters).toEqual({
        type: 'object',
        properties: { message: { type: 'string', description: 'Message to echo' } },
        required: ['message'],
      });
      expect(await echo?.run({ message: 'MCP-ECHO-42' }, ctx())).toEqual({
        ok: true,
        output: 'Echo: MCP-ECHO-42',
        details: { kinds: { text: 1 } },
      });
      const sum = await run.tool('everything__get-sum')?.run({ a: 2, b: 40 }, ctx());
      expect(sum?.output).toContain('42');
      const image = await run.tool('everything__get-tiny-image')?.run({}, ctx());
      expect(image?.ok).toBe(true);
      expect(image?.output).toMatch(/\[image: image\/png, [\d.]+ kB\]/);
      expect(image?.output).not.toMatch(/iVBOR/);
      const read = await run.tool('fs__read_text_file')?.run({ path: join(dir, 'note.txt') }, ctx());
      expect(read?.output).toContain('MCP-FS-NOTE-7');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('cancels a long-running operation through the abort signal within a second, with progress on the way', async () => {
    const run = startServers({ everything: stdio(everything, 'stdio') });
    await run.started;
    const progress: string[] = [];
    const controller = new AbortController();
    const tool = run.tool('everything__trigger-long-running-operation');
    const started = Date.now();
    const call = tool?.run(
      { duration: 30, steps: 30 },
      ctx({
        signal: controller.signal,
        onProgress: (text) => {
          progress.push(text);
          if (progress.length === 2) controller.abort();
        },
      }),
    );
    const outcome = await call;
    expect(progress.slice(0, 2)).toEqual(['1/30', '2/30']);
    expect(outcome).toMatchObject({ ok: false, output: 'The tool call was cancelled by the user.' });
    // Two progress steps of one second each, then the abort: well under the 30 s the call would
    // take. Generous, as a loaded machine delays the server's start and its progress notices.
    expect(Date.now() - started).toBeLessThan(10_000);
    // The server is still usable after the cancelled call.
    expect((await run.tool('everything__echo')?.run({ message: 'after' }, ctx()))?.output).toBe(
      'Echo: after',
    );
  }, 30_000);

  it('ends every stdio child on shutdown: no orphans', async () => {
    const run = startServers({ a: stdio(everything, 'stdio'), b: stdio(fault, 'flood') });
    await run.started;
    expect(run.s.list().every((c) => c.state.kind === 'ready')).toBe(true);
    const childPids = await childProcessIds();
    expect(childPids.length).toBeGreaterThanOrEqual(2);
    await run.s.shutdown();
    for (const pid of childPids) expect(alive(pid), `pid ${pid}`).toBe(false);
  }, 30_000);
});

/** The PIDs of this process's children running a server script. */
async function childProcessIds(): Promise<number[]> {
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => /server-everything|fault-mcp-server/.test(line))
    .map((line) => Number.parseInt(line.trim(), 10));
}

describe('McpServers against faulty servers', () => {
  it('reports a server that never answers initialize as failed after the connect timeout, without holding up the others', async () => {
    const run = startServers({ hang: stdio(fault, 'hang'), ok: stdio(fault, 'changing') }, 1500);
    await run.s.whenSettled(600);
    expect(run.s.list()[0].state.kind).toBe('connecting');
    expect(run.s.list()[1].state.kind).toBe('ready');
    await run.started;
    expect(run.s.list()[0].state).toMatchObject({
      kind: 'failed',
      reason: 'no answer to initialize within 2 s',
    });
  }, 15_000);

  it('reports one that exits at once with the reason and the last lines of its stderr', async () => {
    const run = startServers({ broken: stdio(fault, 'exit') });
    await run.started;
    const [status] = run.s.list();
    expect(status.state.kind).toBe('failed');
    expect(status.state.kind === 'failed' && status.state.stderr).toEqual([
      'fatal: cannot open the database',
      'exiting',
    ]);
  }, 15_000);

  it('reports a server that dies mid-call once; the call answers with an error and later calls say it is down', async () => {
    const run = startServers({ frail: stdio(fault, 'die') });
    await run.started;
    const crash = run.tool('frail__crash');
    const echo = run.tool('frail__echo');
    const outcome = await crash?.run({}, ctx());
    expect(outcome?.ok).toBe(false);
    expect(outcome?.output).toMatch(/^Error: frail__crash failed: /);
    await waitUntil('the loss reported', () => run.lost.length > 0);
    expect(run.lost).toEqual(['frail: the server closed the connection']);
    expect(run.s.list()[0].state).toMatchObject({ kind: 'failed', stderr: ['crash: going down mid-call'] });
    expect(run.tools()).toEqual([]);
    const later = await echo?.run({ text: 'x' }, ctx());
    expect(later?.output).toContain('/mcp restart frail');
    expect(await run.s.restart('frail')).toBe(true);
    expect(run.s.list()[0].state).toEqual({ kind: 'ready', tools: 2 });
    expect(run.lost).toHaveLength(1);
  }, 15_000);

  it('keeps only the last lines of a server that floods stderr', async () => {
    const run = startServers({ loud: stdio(fault, 'flood') });
    await run.started;
    // stderr is read as it arrives, after the server answered: wait for its last line.
    await waitUntil('the last stderr line', () => run.s.list()[0].stderr.at(-1) === 'flood: last line');
    const [status] = run.s.list();
    expect(status.state.kind).toBe('ready');
    expect(status.stderr.length).toBeLessThanOrEqual(13);
    expect(status.stderr.at(-1)).toBe('flood: last line');
    expect(status.stderr.every((line) => line.length <= 401)).toBe(true);
  }, 15_000);

  it('names a hostile tool safely and cuts its 10 kB description', async () => {
    const run = startServers({ bad: stdio(fault, 'hostile') });
    await run.started;
    const [tool] = run.tools();
    expect(tool.name).toMatch(/^bad__evil_/);
    expect(tool.name).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(tool.description.length).toBeLessThanOrEqual(1000);
    expect(tool.description).not.toMatch(/[\u0000-\u001f]/);
    expect(tool.mcp?.tool).toBe('evil\u001b[31mname\u0007');
  }, 15_000);

  it('takes 200 tools, and follows notifications/tools/list_changed', async () => {
    const run = startServers({ many: stdio(fault, 'many'), live: stdio(fault, 'changing') });
    await run.started;
    expect(run.s.list()[0].state).toEqual({ kind: 'ready', tools: 200 });
    expect(
      run
        .tools()
        .filter((t) => t.mcp?.server === 'live')
        .map((t) => t.name),
    ).toEqual(['live__echo']);
    await waitUntil('the tool added later', () => run.tools().some((t) => t.name === 'live__added'));
    expect(
      run
        .tools()
        .filter((t) => t.mcp?.server === 'live')
        .map((t) => t.name),
    ).toEqual(['live__echo', 'live__added']);
  }, 15_000);
});
