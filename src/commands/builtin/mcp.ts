import { twoColumnRows } from '../../text/terminal-rows.js';
import { CommandUsageError, type SlashCommand, wordsBefore } from '../command.js';
import type { CommandHost, McpCommands, McpServerView, ScreenCommands } from '../command-host.js';

/** Tools `/mcp` lists of one server; the rest are counted (10,000 rows took seconds to draw). */
const MCP_LISTED_TOOLS = 50;

/** `ready, 13 tools`, `failed: <reason>`: a server's state on its heading line. */
function stateText(server: McpServerView): string {
  switch (server.state) {
    case 'ready': {
      const count = server.tools.length;
      return server.listed === undefined
        ? `ready, ${count} tool${count === 1 ? '' : 's'}`
        : `ready, ${count.toLocaleString('en-US')} of the ${server.listed.toLocaleString('en-US')} tools it lists (the rest are not kept)`;
    }
    case 'failed':
      return `failed: ${server.reason ?? 'unknown reason'}`;
    case 'disabled':
      return `disabled${server.reason ? ` (${server.reason})` : ''}`;
    default:
      return 'connecting…';
  }
}

/** One server: heading, tools (name the model sees, description), and for a failure its stderr's last lines. */
function serverLines(server: McpServerView, columns: number): string[] {
  const marker = server.state === 'ready' ? '●' : server.state === 'failed' ? '✗' : '○';
  const origin = server.origin === '.mcp.json' ? ' (.mcp.json)' : '';
  const lines = [`${marker} ${server.name}${origin} — ${stateText(server)}`, `    ${server.endpoint}`];
  const shown = server.tools.slice(0, MCP_LISTED_TOOLS);
  lines.push(
    ...twoColumnRows(
      shown.map((t) => [`    ${t.name}`, t.description]),
      columns,
    ),
  );
  const more = server.tools.length - shown.length;
  if (more > 0)
    lines.push(`    … and ${more.toLocaleString('en-US')} more (/tools on|off <name> takes any of them)`);
  if (server.stderrNote) lines.push(`    ${server.stderrNote}`);
  if (server.state === 'failed' && server.stderr.length > 0) {
    lines.push('    last lines of its stderr:', ...server.stderr.map((line) => `      ${line}`));
  }
  return lines;
}

/** `/mcp [restart <name>]`: the MCP servers, their state and tools; restarts one. */
export const mcpCommand: SlashCommand = {
  name: 'mcp',
  summary: 'List MCP servers (state, tools, errors); restart one',
  usage: '/mcp [restart <name>]',
  runsWhileBusy: true,
  completion(context, args) {
    const before = wordsBefore(args);
    if (before.length === 0) return [{ value: 'restart' }];
    if (before.length === 1 && before[0] === 'restart')
      return (context.mcpServers ?? []).map((name) => ({ value: name }));
    return [];
  },
  async run(host, args) {
    if (!args) {
      listServers(host);
      return;
    }
    const match = /^restart\s+(\S+)$/.exec(args);
    if (!match) throw new CommandUsageError('Expected "restart <name>".');
    const name = match[1];
    const names = host.tools.mcp.servers().map((s) => s.name);
    if (!names.includes(name)) {
      throw new CommandUsageError(`No MCP server named "${name}" (servers: ${names.join(', ') || 'none'}).`);
    }
    await restartServer(host.screen, host.tools.mcp, name);
  },
};

/** Restarts the MCP server `name` and says how that went: `/mcp restart` and the offer after one died. */
export async function restartServer(
  screen: Pick<ScreenCommands, 'notice'>,
  mcp: McpCommands,
  name: string,
): Promise<void> {
  screen.notice('info', `Restarting ${name}…`);
  await mcp.restart(name);
  const server = mcp.servers().find((s) => s.name === name);
  if (server?.state === 'ready') screen.notice('success', `${name}: ${stateText(server)}.`);
  else screen.notice('warning', `${name}: ${server ? stateText(server) : 'gone'}.`);
}

function listServers(host: CommandHost): void {
  const servers = host.tools.mcp.servers();
  if (servers.length === 0) {
    host.screen.show('No MCP servers: add them under mcp_servers: in config.yml, or in a .mcp.json here.');
    return;
  }
  host.screen.show(
    ['MCP servers:', ...servers.flatMap((s) => serverLines(s, host.screen.columns))].join('\n'),
  );
}
