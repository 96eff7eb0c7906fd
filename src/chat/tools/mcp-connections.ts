import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { restartServer } from '../../commands/builtin/mcp.js';
import type { McpCommands, McpServerView } from '../../commands/command-host.js';
import type { AppState } from '../../config/app-state.js';
import type { McpServerConfig } from '../../config/mcp-servers-schema.js';
import { loadMcpRuntime } from '../../mcp/load-mcp.js';
import type { McpServers } from '../../mcp/mcp-runtime.js';
import { describeError } from '../../text/describe-error.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { RequestBuilder } from '../request/request-builder.js';
import type { AskDialog } from '../state/dialog-queue.js';
import type { ScreenLog } from '../state/screen-log.js';
import type { WorkQueue } from '../state/work-queue.js';

/** What the chat's MCP servers need. */
export interface McpConnectionsDeps {
  /** `mcp_servers` of the config. */
  servers: Readonly<Record<string, McpServerConfig>>;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  version: string;
  tools: ToolRegistry;
  requests: RequestBuilder;
  screen: ScreenLog;
  ask: AskDialog;
  /** The approval question waits its turn behind what the user asked for. */
  queue: WorkQueue;
  appState: AppState;
  interactive: boolean;
}

/**
 * The chat's MCP servers: the config's and, once approved, the directory's `.mcp.json`. The
 * client loads and the servers connect in the background (never before the first frame, never
 * holding up a reply); their tools join the registry as each gets ready.
 */
export class McpConnections implements McpCommands {
  #servers: McpServers | undefined;
  #origins = new Map<string, McpServerView['origin']>();
  #loading: Promise<void> | undefined;
  /** Loaded and every server started (or none to start). */
  #started = false;
  /** A one-shot stopped waiting for them (mcp_start_timeout_s). */
  #waited = false;
  #closed = false;

  constructor(private readonly deps: McpConnectionsDeps) {
    for (const name of Object.keys(deps.servers)) this.#origins.set(name, 'config');
  }

  /** Whether there is anything to start: configured servers or a `.mcp.json` here. */
  get configured(): boolean {
    return this.#origins.size > 0 || existsSync(join(this.deps.cwd, '.mcp.json'));
  }

  /** Loads the client and starts every server in the background; resolves once they are starting. */
  start(): Promise<void> {
    if (!this.configured) return Promise.resolve();
    this.#loading ??= this.#start()
      .catch((error) => {
        this.deps.screen.notice('warning', `MCP servers cannot start: ${describeError(error)}`);
      })
      .finally(() => {
        this.#started = true;
      });
    return this.#loading;
  }

  async #start(): Promise<void> {
    const { deps } = this;
    const runtime = await loadMcpRuntime();
    const servers: Record<string, McpServerConfig> = { ...deps.servers };
    const project = runtime.readProjectServers(deps.cwd);
    if (project) {
      for (const problem of project.problems) deps.screen.notice('warning', `${project.path}: ${problem}`);
      const added = Object.entries(project.servers).filter(([name]) => !(name in servers));
      if (
        added.length > 0 &&
        (await this.#approved(
          project.hash,
          project.path,
          added.map(([n, s]) => runtime.serverLaunchLine(n, s)),
        ))
      ) {
        for (const [name, server] of added) {
          servers[name] = server;
          this.#origins.set(name, '.mcp.json');
        }
      }
    }
    if (this.#closed || Object.keys(servers).length === 0) return;
    this.#servers = new runtime.McpServers({
      servers,
      env: deps.env,
      cwd: deps.cwd,
      version: deps.version,
      reservedNames: deps.tools
        .list()
        .filter((t) => !t.tool.mcp)
        .map((t) => t.name)
        .concat('find_tools'),
      onTools: (tools) => {
        deps.tools.setMcpTools(tools);
        deps.requests.toolsChanged();
      },
      onLost: (server, reason) => this.#lost(server, reason),
    });
    void this.#servers.start();
  }

  /**
   * A server that was ready went away (told once per start): said at once; where someone can
   * answer, a restart is offered once the running reply or call is over.
   */
  #lost(server: string, reason: string): void {
    const { deps } = this;
    const stopped = `MCP server ${server} stopped (${reason}); its tools answer with an error.`;
    deps.screen.notice('warning', stopped);
    // A one-shot has no one to ask, and no /mcp to type.
    if (!deps.interactive) return;
    void deps.queue.enqueue(async () => {
      // Quitting, or restarted meanwhile with /mcp restart: nothing to offer.
      if (this.#closed || this.#servers?.list().find((s) => s.name === server)?.state.kind !== 'failed')
        return;
      const key = await deps.ask({
        kind: 'restart-mcp',
        question: `Restart MCP server ${server}?`,
        choices: 'y/n',
      });
      if (key.toLowerCase() === 'y') await restartServer(deps.screen, this, server);
      else deps.screen.notice('info', `${server} stays stopped; /mcp restart ${server} starts it later.`);
    });
  }

  /** Whether the `.mcp.json` (this content) may start its programs: asked once, remembered per directory and hash. */
  async #approved(hash: string, path: string, lines: string[]): Promise<boolean> {
    const { deps } = this;
    // A one-shot that names its model has not opened the state file yet: the approval is in it.
    await deps.appState.open();
    if (deps.appState.mcpApproval(deps.cwd) === hash) return true;
    if (!deps.interactive) {
      deps.screen.notice(
        'warning',
        `${path} is not approved, so its MCP servers are not started: run ochat in this directory once to approve it.`,
      );
      return false;
    }
    let key = 'n';
    await deps.queue.enqueue(async () => {
      // The list as a notice (dialogs are one line): the exact command lines, sanitized on render.
      deps.screen.notice(
        'warning',
        [`${path} starts these MCP servers:`, ...lines.map((line) => `  ${line}`)].join('\n'),
      );
      key = await deps.ask({
        kind: 'approve-mcp',
        question: 'Start these MCP servers? The answer is kept for this .mcp.json as it is now',
        choices: 'y/n',
      });
    });
    if (key.toLowerCase() !== 'y') {
      deps.screen.notice('info', `Not starting the servers of ${path}.`);
      return false;
    }
    deps.appState.approveMcp(deps.cwd, hash);
    // Said as a "no" is: the answer is kept, and /mcp follows the servers from here.
    deps.screen.notice(
      'success',
      `Starting the servers of ${path}; the approval is kept until the file changes (/mcp shows them).`,
    );
    return true;
  }

  /** Resolves when every server is ready or failed, or after `timeoutMs` (a one-shot's start-up wait). */
  async whenSettled(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    await Promise.race([this.start(), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    await this.#servers?.whenSettled(Math.max(0, deadline - Date.now()));
    this.#waited = true;
  }

  /**
   * Whether the MCP tools are all there is to wait for: every server ready or failed (or none
   * configured), or a one-shot done waiting. Until then a figure over all tools would be partial.
   */
  get settled(): boolean {
    if (this.#waited || !this.configured) return true;
    return this.#started && (this.#servers?.settled ?? true);
  }

  servers(): McpServerView[] {
    const running = this.#servers?.list();
    if (!running) {
      // Still loading (or awaiting approval): the configured servers, connecting.
      return Object.entries(this.deps.servers).map(([name, server]) => ({
        name,
        endpoint:
          server.command !== undefined
            ? `stdio: ${[server.command, ...server.args].join(' ')}`
            : `http: ${server.url}`,
        state: server.enabled ? 'connecting' : 'disabled',
        tools: [],
        stderr: [],
        origin: 'config',
      }));
    }
    return running.map((server) => ({
      name: server.name,
      endpoint: server.endpoint,
      state: server.state.kind,
      ...(server.state.kind === 'failed' || server.state.kind === 'disabled'
        ? { reason: server.state.reason }
        : {}),
      tools: server.tools.map((t) => ({ name: t.name, description: t.description })),
      ...(server.state.kind === 'ready' &&
        server.state.listed !== undefined && { listed: server.state.listed }),
      stderr: server.stderr,
      ...(server.stderrNote && { stderrNote: server.stderrNote }),
      origin: this.#origins.get(server.name) ?? 'config',
    }));
  }

  async restart(name: string): Promise<boolean> {
    await this.start();
    return (await this.#servers?.restart(name)) ?? false;
  }

  /** Ends every server: stdio children are closed, then killed if they linger. */
  async shutdown(): Promise<void> {
    this.#closed = true;
    await this.#servers?.shutdown();
  }
}
