import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS } from '../../../src/commands/builtin-commands.js';
import { dispatchCommand } from '../../../src/commands/dispatch.js';
import { FakeHost } from '../../support/fake-command-host.js';

async function run(line: string, host = new FakeHost()): Promise<FakeHost> {
  await dispatchCommand(BUILTIN_COMMANDS, host, line);
  return host;
}

describe('/mcp', () => {
  it('lists each server with its state, endpoint and tools; a failed one with its reason and stderr', async () => {
    const host = new FakeHost();
    host.mcpServers = [
      {
        name: 'everything',
        endpoint: 'stdio: node everything.js stdio',
        state: 'ready',
        tools: [{ name: 'everything__echo', description: 'Echoes back the input' }],
        stderr: ['Starting default (STDIO) server...'],
        origin: 'config',
      },
      {
        name: 'db',
        endpoint: 'stdio: db-server',
        state: 'failed',
        reason: 'Connection closed',
        tools: [],
        stderr: ['fatal: cannot open the database'],
        origin: '.mcp.json',
      },
      {
        name: 'slow',
        endpoint: 'http: http://127.0.0.1:9/mcp',
        state: 'connecting',
        tools: [],
        stderr: [],
        origin: 'config',
      },
    ];
    await run('/mcp', host);
    const lines = host.onlyShown.split('\n');
    expect(lines[0]).toBe('MCP servers:');
    expect(lines).toContain('● everything — ready, 1 tool');
    expect(lines).toContain('    stdio: node everything.js stdio');
    expect(lines.some((l) => /^ {4}everything__echo\s+Echoes back the input$/.test(l))).toBe(true);
    expect(lines).not.toContain('      Starting default (STDIO) server...');
    expect(lines).toContain('✗ db (.mcp.json) — failed: Connection closed');
    expect(lines).toContain('      fatal: cannot open the database');
    expect(lines).toContain('○ slow — connecting…');
  });

  it('a server with many tools: the kept count of those listed, 50 rows, the rest counted; how much stderr was dropped', async () => {
    const host = new FakeHost();
    host.mcpServers = [
      {
        name: 'many',
        endpoint: 'stdio: many',
        state: 'ready',
        tools: Array.from({ length: 1000 }, (_, i) => ({ name: `many__t${i}`, description: `Tool ${i}` })),
        listed: 10_000,
        stderr: [],
        stderrNote: '35 MB of stderr, all but the last 12 lines dropped',
        origin: 'config',
      },
    ];
    await run('/mcp', host);
    const lines = host.onlyShown.split('\n');
    expect(lines).toContain('● many — ready, 1,000 of the 10,000 tools it lists (the rest are not kept)');
    expect(lines.filter((l) => /^ {4}many__t\d+/.test(l))).toHaveLength(50);
    expect(lines).toContain('    … and 950 more (/tools on|off <name> takes any of them)');
    expect(lines).toContain('    35 MB of stderr, all but the last 12 lines dropped');
  });

  it('says how to add servers when there are none', async () => {
    expect((await run('/mcp')).onlyShown).toContain('No MCP servers: add them under mcp_servers:');
  });

  it('restarts a server by name and refuses an unknown one', async () => {
    const host = new FakeHost();
    host.mcpServers = [
      { name: 'fs', endpoint: 'stdio: fs', state: 'ready', tools: [], stderr: [], origin: 'config' },
    ];
    await run('/mcp restart fs', host);
    expect(host.mcpRestarted).toEqual(['fs']);
    expect(host.notices.map((n) => n.text)).toEqual(['Restarting fs…', 'fs: ready, 0 tools.']);
    await run('/mcp restart nope', host);
    expect(host.notices.at(-1)?.text).toContain('No MCP server named "nope" (servers: fs)');
  });

  it('completes restart and the server names', () => {
    const mcp = BUILTIN_COMMANDS.find((c) => c.name === 'mcp');
    const context = { models: [], tools: [], approvals: [], mcpServers: ['fs', 'everything'] };
    expect(mcp?.completion?.(context, '')).toEqual([{ value: 'restart' }]);
    expect(mcp?.completion?.(context, 'restart ')).toEqual([{ value: 'fs' }, { value: 'everything' }]);
  });
});
