import type { McpServerConfig } from '../config/mcp-servers-schema.js';
import type { Tool } from '../tools/tool.js';
import { mcpTool } from './mcp-tool.js';
import { ServerConnection } from './server-connection.js';
import type { ServerState } from './server-state.js';
import { assignToolNames } from './tool-naming.js';

/** One server as `/mcp` lists it. */
export interface McpServerStatus {
  name: string;
  /** `stdio: <command line>` or `http: <url>`, exactly as configured. */
  endpoint: string;
  state: ServerState;
  /** Its tools: the name the model sees, the server's own name, the description. */
  tools: { name: string; tool: string; description: string }[];
  /** The last lines it wrote to stderr. */
  stderr: string[];
  /** How much of its stderr was dropped, in words, when any was. */
  stderrNote?: string;
}

/** What the servers need and whom they tell. */
export interface McpServersOptions {
  servers: Readonly<Record<string, McpServerConfig>>;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  version: string;
  /** Names MCP tools must not take (the built-ins). */
  reservedNames: readonly string[];
  /** Every MCP tool of every ready server, after any change (a server ready, failed, its list changed). */
  onTools(tools: Tool[]): void;
  /** A ready server went away: told once per start. */
  onLost(server: string, reason: string): void;
  connectTimeoutMs?: number;
}

/**
 * Every configured MCP server: started in the background, never awaited by the chat; their tools
 * named `<server>__<tool>` across all servers (collisions resolved in config order) and handed
 * to `onTools` whenever they change.
 */
export class McpServers {
  readonly #connections: ServerConnection[];
  #tools: Tool[] = [];
  #closed = false;

  constructor(private readonly options: McpServersOptions) {
    this.#connections = Object.entries(options.servers).map(
      ([name, config]) =>
        new ServerConnection(name, config, {
          env: options.env,
          cwd: options.cwd,
          version: options.version,
          connectTimeoutMs: options.connectTimeoutMs,
          events: {
            onChange: () => this.#refresh(),
            onLost: (reason) => options.onLost(name, reason),
          },
        }),
    );
  }

  /** Starts every enabled server; resolves when each is ready or has failed. */
  start(): Promise<void> {
    return Promise.all(this.#connections.map((c) => c.start())).then(() => {});
  }

  /** Resolves once no server is still connecting, or after `timeoutMs`, whichever is first. */
  async whenSettled(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.settled && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, deadline - Date.now()))));
    }
  }

  /** Whether no server is still connecting. */
  get settled(): boolean {
    return !this.#connections.some((c) => c.state.kind === 'connecting');
  }

  /** The tools of the ready servers, as last handed to `onTools`. */
  get tools(): readonly Tool[] {
    return this.#tools;
  }

  list(): McpServerStatus[] {
    return this.#connections.map((c) => ({
      name: c.name,
      endpoint:
        c.config.command !== undefined
          ? `stdio: ${[c.config.command, ...c.config.args].join(' ')}`
          : `http: ${c.config.url ?? ''}`,
      state: c.state,
      tools: this.#tools
        .filter((t) => t.mcp?.server === c.name)
        .map((t) => ({ name: t.name, tool: t.mcp?.tool ?? t.name, description: t.description })),
      stderr: c.stderr.lines(),
      stderrNote: c.stderr.droppedNote(),
    }));
  }

  /** Restarts a server by name (one disabled by `enabled: false` stays so); false when there is none. */
  async restart(name: string): Promise<boolean> {
    const connection = this.#connections.find((c) => c.name === name);
    if (!connection || this.#closed) return false;
    await connection.restart();
    return true;
  }

  /** Ends every server (stdio children closed, killed if they linger). */
  async shutdown(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#connections.map((c) => c.stop()));
  }

  /** Names every ready server's tools again and hands them over. */
  #refresh(): void {
    if (this.#closed) return;
    const listed = this.#connections
      .filter((c) => c.state.kind === 'ready')
      .flatMap((c) => c.tools.map((tool) => ({ connection: c, tool })));
    const names = assignToolNames(
      listed.map(({ connection, tool }) => ({ server: connection.name, tool: tool.name })),
      this.options.reservedNames,
    );
    this.#tools = listed.map(({ connection, tool }, i) => mcpTool(connection, tool, names[i] ?? tool.name));
    this.options.onTools(this.#tools);
  }
}
