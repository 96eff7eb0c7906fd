/* biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is what the config file holds */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpServerSchema } from '../../src/config/mcp-servers-schema.js';
import { McpServers } from '../../src/mcp/mcp-servers.js';
import type { Tool } from '../../src/tools/tool.js';
import { EVERYTHING_SERVER } from '../support/mcp-servers.js';

const root = resolve(import.meta.dirname, '../..');
const everything = EVERYTHING_SERVER;

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts the everything server in an HTTP mode on a loopback port; resolves once it listens. */
async function startHttpServer(
  mode: 'streamableHttp' | 'sse',
): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everything, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolveListening, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening on port|running on port/i.test(seen)) resolveListening();
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${seen}`)));
  });
  return { child, port };
}

let servers: McpServers | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  await servers?.shutdown();
  child?.kill();
  servers = undefined;
  child = undefined;
});

async function connect(
  url: string,
  extra: { headers?: Record<string, string>; env?: Record<string, string> } = {},
) {
  let tools: Tool[] = [];
  servers = new McpServers({
    servers: { remote: mcpServerSchema.parse({ url, ...(extra.headers && { headers: extra.headers }) }) },
    env: extra.env ?? {},
    cwd: root,
    version: 'test',
    reservedNames: [],
    onTools: (list) => {
      tools = list;
    },
    onLost: () => {},
  });
  await servers.start();
  return { status: servers.list()[0], tool: (name: string) => tools.find((t) => t.name === name) };
}

const ctx = { cwd: root, allowedPaths: [], commandTimeoutMs: 10_000, now: () => new Date() };

describe('McpServers over HTTP against the real everything server on a loopback port', () => {
  it('speaks Streamable HTTP', async () => {
    const server = await startHttpServer('streamableHttp');
    child = server.child;
    const { status, tool } = await connect(`http://127.0.0.1:${server.port}/mcp`);
    expect(status.state).toEqual({ kind: 'ready', tools: 13 });
    expect(status.endpoint).toBe(`http: http://127.0.0.1:${server.port}/mcp`);
    expect((await tool('remote__echo')?.run({ message: 'over HTTP' }, ctx))?.output).toBe('Echo: over HTTP');
  }, 30_000);

  it('falls back to the older SSE transport when Streamable HTTP is refused', async () => {
    const server = await startHttpServer('sse');
    child = server.child;
    const { status, tool } = await connect(`http://127.0.0.1:${server.port}/sse`);
    expect(status.state.kind).toBe('ready');
    expect((await tool('remote__get-sum')?.run({ a: 20, b: 22 }, ctx))?.output).toContain('42');
  }, 30_000);

  it('sends the headers of the config with ${VAR} expanded from the environment, to each transport it tries', async () => {
    // A loopback listener that keeps what it is sent and refuses it: the headers are what matter.
    const seen: { method: string; headers: IncomingHttpHeaders }[] = [];
    const listener = createHttpServer((request, response) => {
      seen.push({ method: request.method ?? '', headers: request.headers });
      response.writeHead(401, { 'content-type': 'text/plain' }).end('no');
    });
    await new Promise<void>((resolveListening) => listener.listen(0, '127.0.0.1', resolveListening));
    try {
      const address = listener.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const { status } = await connect(`http://127.0.0.1:${port}/mcp`, {
        headers: { Authorization: 'Bearer ${MCP_TEST_TOKEN}', 'X-Team': 'ochat-${MCP_TEST_TEAM}' },
        env: { MCP_TEST_TOKEN: 'secret-42', MCP_TEST_TEAM: 'core' },
      });
      expect(status.state.kind).toBe('failed');
      // Streamable HTTP's POST, then the SSE fallback's GET: both carry the expanded values.
      expect(seen.map((request) => request.method)).toEqual(expect.arrayContaining(['POST', 'GET']));
      for (const request of seen) {
        expect(request.headers.authorization).toBe('Bearer secret-42');
        expect(request.headers['x-team']).toBe('ochat-core');
      }
    } finally {
      await new Promise((resolveClosed) => listener.close(resolveClosed));
    }
  }, 30_000);

  it('reports a server that is not there as failed', async () => {
    const port = await freePort();
    const { status } = await connect(`http://127.0.0.1:${port}/mcp`);
    expect(status.state.kind).toBe('failed');
  }, 30_000);
});
