/** The MCP servers the tests and benches start: real ones from the npm registry, and the fault server. */
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** `@modelcontextprotocol/server-everything`: echo, get-sum, long-running operations, images. */
export const EVERYTHING_SERVER = join(
  root,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
/** `@modelcontextprotocol/server-filesystem`: a second real server (name collisions). */
export const FILESYSTEM_SERVER = join(
  root,
  'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);
/** The fault server: modes that hang, exit, die mid-call, flood stderr, or carry 200 tools. */
export const FAULT_SERVER = join(root, 'test/support/fault-mcp-server.mjs');

/** A config whose `mcp_servers` start each script (name → script and arguments) with this Node; `extra` follows. */
export function mcpConfig(servers: Record<string, string[]>, extra = ''): string {
  const lines = ['mcp_servers:'];
  for (const [name, args] of Object.entries(servers)) {
    lines.push(
      `  ${name}:`,
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: ${JSON.stringify(args)}`,
    );
  }
  return `${lines.join('\n')}\n${extra}`;
}
