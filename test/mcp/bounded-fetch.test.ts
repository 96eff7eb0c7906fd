import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpServerSchema } from '../../src/config/mcp-servers-schema.js';
import { MAX_MESSAGE_BYTES } from '../../src/mcp/bounded-read-buffer.js';
import { McpServers } from '../../src/mcp/mcp-servers.js';
import type { Tool } from '../../src/tools/tool.js';

/** How a server answers: Streamable HTTP with a JSON body or an SSE stream per POST, or the older SSE transport. */
type Shape = 'json' | 'event-stream' | 'legacy-sse';

/** The text of the tool `big`'s result: over the limit of one message. */
const BIG_BYTES = MAX_MESSAGE_BYTES + 2 * 1024 * 1024;

interface Rpc {
  id?: number | string;
  method: string;
  params?: { name?: string; arguments?: { text?: string }; protocolVersion?: string };
}

/** The answer to `rpc`, as an MCP server gives it; undefined for a notification. */
function answer(rpc: Rpc): object | undefined {
  if (rpc.id === undefined) return undefined;
  const reply = (result: object) => ({ jsonrpc: '2.0', id: rpc.id, result });
  if (rpc.method === 'initialize')
    return reply({
      protocolVersion: rpc.params?.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'big-http', version: '1.0.0' },
    });
  if (rpc.method === 'tools/list') {
    const inputSchema = { type: 'object', properties: { text: { type: 'string' } } };
    return reply({
      tools: [
        { name: 'big', description: 'A result over 10 MB', inputSchema },
        { name: 'echo', description: 'Echoes text', inputSchema },
      ],
    });
  }
  if (rpc.method === 'tools/call') {
    const text = rpc.params?.name === 'big' ? 'x'.repeat(BIG_BYTES) : `echo: ${rpc.params?.arguments?.text}`;
    return reply({ content: [{ type: 'text', text }] });
  }
  return { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'Method not found' } };
}

async function bodyOf(request: IncomingMessage): Promise<Rpc> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Rpc;
}

/** A local MCP server over HTTP in the given shape; resolves to its URL. */
async function startServer(shape: Shape): Promise<string> {
  let events: ServerResponse | undefined;
  server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      if (shape === 'legacy-sse') {
        if (request.method === 'GET' && path === '/sse') {
          events = response.writeHead(200, { 'content-type': 'text/event-stream' });
          events.write('event: endpoint\ndata: /messages\n\n');
          return;
        }
        if (request.method === 'POST' && path === '/messages') {
          const reply = answer(await bodyOf(request));
          response.writeHead(202).end('Accepted');
          if (reply) events?.write(`event: message\ndata: ${JSON.stringify(reply)}\n\n`);
          return;
        }
        // Streamable HTTP refused: the client falls back to SSE.
        response.writeHead(405).end();
        return;
      }
      if (request.method !== 'POST') {
        response.writeHead(405).end();
        return;
      }
      const reply = answer(await bodyOf(request));
      if (!reply) response.writeHead(202).end();
      else if (shape === 'json')
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      else
        response
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .end(`event: message\ndata: ${JSON.stringify(reply)}\n\n`);
    })();
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const address = listening.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return `http://127.0.0.1:${port}/${shape === 'legacy-sse' ? 'sse' : 'mcp'}`;
}

let server: Server | undefined;
let servers: McpServers | undefined;
afterEach(async () => {
  await servers?.shutdown();
  servers = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

const ctx = { cwd: process.cwd(), allowedPaths: [], commandTimeoutMs: 10_000, now: () => new Date() };

describe('an MCP server over HTTP sending an answer over the 10 MB limit of one message', () => {
  it.each<Shape>(['json', 'event-stream', 'legacy-sse'])(
    '(%s): the call gets the limit error the stdio transport gives, and the server stays',
    async (shape) => {
      const url = await startServer(shape);
      let tools: Tool[] = [];
      servers = new McpServers({
        servers: { remote: mcpServerSchema.parse({ url }) },
        env: {},
        cwd: process.cwd(),
        version: 'test',
        reservedNames: [],
        onTools: (list) => {
          tools = list;
        },
        onLost: () => {},
      });
      await servers.start();
      expect(servers.list()[0]?.state).toEqual({ kind: 'ready', tools: 2 });
      const tool = (name: string) => tools.find((t) => t.name === name);

      const big = await tool('remote__big')?.run({}, ctx);
      expect(big?.ok).toBe(false);
      expect(big?.output).toMatch(
        /the result was 13 MB, over the 10 MB limit of one MCP message: it was dropped, and the server keeps running/,
      );
      expect(big?.output.length).toBeLessThan(1000);
      expect(servers.list()[0]?.state.kind).toBe('ready');
      expect((await tool('remote__echo')?.run({ text: 'still here' }, ctx))?.output).toBe('echo: still here');
    },
    30_000,
  );
});
