import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_SERVER_NAME, type McpServerConfig, mcpServerSchema } from '../config/mcp-servers-schema.js';

/** The file other MCP clients read from a project's directory. */
export const PROJECT_MCP_FILE = '.mcp.json';

/** A project's `.mcp.json`: its servers, what was wrong in it, and its content hash (what an approval is for). */
export interface ProjectServers {
  path: string;
  hash: string;
  servers: Record<string, McpServerConfig>;
  problems: string[];
}

/**
 * Reads `<dir>/.mcp.json` (`{"mcpServers": {name: {command, args, env, cwd} | {url, headers}}}`, an
 * optional `type` of stdio/http/sse ignored); undefined when there is none. A server that does not
 * validate is left out and named in `problems`.
 */
export function readProjectServers(dir: string): ProjectServers | undefined {
  const path = join(dir, PROJECT_MCP_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const hash = createHash('sha256').update(text).digest('hex');
  const result: ProjectServers = { path, hash, servers: {}, problems: [] };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    result.problems.push(`not JSON: ${(error as Error).message}`);
    return result;
  }
  const servers = isRecord(data) && isRecord(data.mcpServers) ? data.mcpServers : undefined;
  if (!servers) {
    result.problems.push('no "mcpServers" mapping');
    return result;
  }
  for (const [name, raw] of Object.entries(servers)) {
    if (!MCP_SERVER_NAME.test(name)) {
      result.problems.push(`${name}: a server name may use only letters, digits, - and _`);
      continue;
    }
    const { type: _type, ...rest } = isRecord(raw) ? raw : {};
    const parsed = mcpServerSchema.safeParse(rest);
    if (parsed.success) result.servers[name] = parsed.data;
    else
      result.problems.push(
        `${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'server'} ${i.message}`).join('; ')}`,
      );
  }
  return result;
}

/** How a server starts, exactly, for the approval question: the command line or the URL. */
export function serverLaunchLine(name: string, server: McpServerConfig): string {
  if (server.command === undefined) return `${name}: ${server.url ?? ''}`;
  const env = Object.entries(server.env).map(([key, value]) => `${key}=${value} `);
  const quoted = [server.command, ...server.args].map((word) =>
    /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word),
  );
  return `${name}: ${env.join('')}${quoted.join(' ')}${server.cwd ? ` (in ${server.cwd})` : ''}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
