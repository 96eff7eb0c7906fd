import type { Readable } from 'node:stream';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { McpServerConfig } from '../config/mcp-servers-schema.js';
import { boundedFetch } from './bounded-fetch.js';
import { boundReadBuffer } from './bounded-read-buffer.js';
import { expandEnvReferences } from './expand-env.js';
import { mcpErrorText } from './mcp-error-text.js';
import { type CallOptions, type ListedTool, MAX_TOOLS_PER_SERVER, type ServerState } from './server-state.js';
import { followStderr, StderrTail } from './stderr-tail.js';

/** How long `initialize` and the first `tools/list` may take before the server is reported failed. */
export const CONNECT_TIMEOUT_MS = 30_000;
/** How long a stdio server is given to exit after its stdin closes, before it is killed. */
const EXIT_GRACE_MS = 500;

/** What a connection tells its owner. */
export interface ConnectionEvents {
  /** The state or the tool list changed. */
  onChange(): void;
  /** It was ready and its process or connection went away: told once per start. */
  onLost(reason: string): void;
}

/** Where a connection runs and who it reports to. */
export interface ConnectionOptions {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  version: string;
  events: ConnectionEvents;
  connectTimeoutMs?: number;
}

/** PIDs of stdio servers still running: killed when ochat exits however it exits, so none is orphaned. */
const livePids = new Set<number>();
let exitHookInstalled = false;
function trackPid(pid: number): void {
  livePids.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const id of livePids) killQuietly(id, 'SIGKILL');
  });
}

function killQuietly(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * One MCP server: starts it (a stdio child with its stderr kept, or Streamable HTTP with the
 * SSE fallback), lists its tools and follows `notifications/tools/list_changed`, runs calls, and
 * reports a server that goes away. Never throws from `start`: failures become its state.
 */
export class ServerConnection {
  #state: ServerState;
  #tools: ListedTool[] = [];
  #client: Client | undefined;
  #transport: StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport | undefined;
  #pid: number | undefined;
  /** Bumped by each start and stop: events of an earlier start are ignored. */
  #generation = 0;
  readonly stderr = new StderrTail();

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    this.#state = config.enabled ? { kind: 'connecting' } : { kind: 'disabled', reason: 'enabled: false' };
  }

  get state(): ServerState {
    return this.#state;
  }

  /** The tools it listed, filtered by the config's `tools` and `exclude_tools`. */
  get tools(): readonly ListedTool[] {
    return this.#tools;
  }

  /** The stdio child's process id while it runs. */
  get pid(): number | undefined {
    return this.#pid;
  }

  /** Connects and lists tools; resolves when it is ready or has failed. */
  async start(): Promise<void> {
    if (!this.config.enabled) return;
    const generation = ++this.#generation;
    this.#set({ kind: 'connecting' });
    this.stderr.clear();
    const timeout = this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    try {
      const client = this.#newClient(generation);
      this.#client = client;
      await this.#connect(client, generation, timeout);
      if (generation !== this.#generation) return;
      const listed = await client.listTools(undefined, { timeout });
      if (generation !== this.#generation) return;
      this.#setTools(listed.tools);
      client.onclose = () => this.#lost(generation, 'the server closed the connection');
    } catch (error) {
      if (generation !== this.#generation) return;
      await this.#dropTransport();
      this.#set({ kind: 'failed', reason: this.#failureReason(error, timeout), stderr: this.stderr.lines() });
    }
  }

  /** Ends it (stdio: stdin closed, then killed if it lingers) and starts it again. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Ends it; its state becomes `disabled` with `reason` when given. */
  async stop(reason?: string): Promise<void> {
    this.#generation++;
    await this.#dropTransport();
    this.#tools = [];
    if (reason) this.#set({ kind: 'disabled', reason });
  }

  /** Runs `tools/call`; rejects when the server is not ready, fails, times out or the call is aborted. */
  async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    const client = this.#client;
    if (!client || this.#state.kind !== 'ready')
      throw new Error(`MCP server ${this.name} is ${this.#state.kind}`);
    return client.callTool(
      { name: tool, arguments: args },
      {
        timeout: this.config.timeout_s * 1000,
        ...(options.signal && { signal: options.signal }),
        ...(options.onProgress && { onprogress: options.onProgress, resetTimeoutOnProgress: true }),
        maxTotalTimeout: this.config.timeout_s * 1000 * 10,
      },
    );
  }

  #newClient(generation: number): Client {
    return new Client(
      { name: 'ochat', version: this.options.version },
      {
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (generation !== this.#generation || error || !tools) return;
              this.#setTools(tools);
            },
          },
        },
      },
    );
  }

  async #connect(client: Client, generation: number, timeout: number): Promise<void> {
    const { config } = this;
    if (config.command !== undefined) {
      const env = expandEnvReferences(config.env, this.options.env);
      const transport = new StdioClientTransport({
        command: config.command,
        args: config.args,
        env: { ...getDefaultEnvironment(), ...env.values },
        cwd: config.cwd ?? this.options.cwd,
        // "inherit" would write over Ink's screen; the last lines are kept for /mcp.
        stderr: 'pipe',
      });
      boundReadBuffer(transport);
      // A PassThrough (stderr: 'pipe'), typed as any Stream by the SDK.
      if (transport.stderr) followStderr(transport.stderr as Readable, this.stderr);
      this.#transport = transport;
      if (env.missing.length)
        this.stderr.push(`ochat: unset in the environment: ${env.missing.join(', ')}\n`);
      try {
        await client.connect(transport, { timeout });
      } finally {
        if (transport.pid) {
          this.#pid = transport.pid;
          trackPid(transport.pid);
        }
      }
      return;
    }
    const url = new URL(config.url ?? '');
    const headers = expandEnvReferences(config.headers, this.options.env).values;
    const streamable = new StreamableHTTPClientTransport(url, {
      requestInit: { headers },
      fetch: boundedFetch(),
    });
    this.#transport = streamable;
    try {
      await client.connect(streamable, { timeout });
    } catch (error) {
      if (generation !== this.#generation) throw error;
      // An older server speaks only the SSE transport (HTTP+SSE, spec 2024-11-05).
      await streamable.close().catch(() => {});
      const sse = new SSEClientTransport(url, { requestInit: { headers }, fetch: boundedFetch() });
      this.#transport = sse;
      try {
        await client.connect(sse, { timeout });
      } catch {
        throw error;
      }
    }
  }

  #setTools(tools: readonly ListedTool[]): void {
    const only = this.config.tools && new Set(this.config.tools);
    const excluded = new Set(this.config.exclude_tools);
    const usable = tools
      .filter((tool) => typeof tool.name === 'string' && tool.name !== '')
      .filter((tool) => (!only || only.has(tool.name)) && !excluded.has(tool.name));
    this.#tools = usable
      .slice(0, MAX_TOOLS_PER_SERVER)
      .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
    const listed = usable.length > this.#tools.length ? { listed: usable.length } : {};
    this.#set({ kind: 'ready', tools: this.#tools.length, ...listed });
  }

  #lost(generation: number, reason: string): void {
    if (generation !== this.#generation || this.#state.kind !== 'ready') return;
    this.#generation++;
    if (this.#pid !== undefined) livePids.delete(this.#pid);
    this.#pid = undefined;
    this.#client = undefined;
    this.#transport = undefined;
    this.#tools = [];
    this.#set({ kind: 'failed', reason, stderr: this.stderr.lines() });
    this.options.events.onLost(reason);
  }

  #failureReason(error: unknown, timeout: number): string {
    const text = mcpErrorText(error);
    if (/timed? ?out|REQUEST_TIMEOUT/i.test(text) || (error as { code?: unknown })?.code === -32001)
      return `no answer to initialize within ${Math.round(timeout / 1000)} s`;
    return text;
  }

  async #dropTransport(): Promise<void> {
    const transport = this.#transport;
    const client = this.#client;
    const pid = this.#pid;
    this.#transport = undefined;
    this.#client = undefined;
    this.#pid = undefined;
    if (client) client.onclose = undefined;
    if (!transport) return;
    // The SDK waits 2 s, then 2 s more, before it kills: too long for quitting. Stdin closed
    // first (what a server watches for), then SIGTERM and SIGKILL after a short grace.
    const closed = (client ?? transport).close().catch(() => {});
    if (pid === undefined) {
      await Promise.race([closed, delay(EXIT_GRACE_MS)]);
      return;
    }
    await Promise.race([closed, delay(EXIT_GRACE_MS)]);
    if (killQuietly(pid, 0)) {
      killQuietly(pid, 'SIGTERM');
      await Promise.race([closed, delay(EXIT_GRACE_MS)]);
      if (killQuietly(pid, 0)) killQuietly(pid, 'SIGKILL');
    }
    livePids.delete(pid);
  }

  #set(state: ServerState): void {
    this.#state = state;
    this.options.events.onChange();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
