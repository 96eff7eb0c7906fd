import type { AppState } from '../../config/app-state.js';
import type { Config } from '../../config/schema.js';
import type { Conversation } from '../../conversation/conversation.js';
import type { StartedToolCall } from '../../conversation/turns.js';
import { VERSION } from '../../platform/version.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ModelSettings } from '../request/model-settings.js';
import type { RequestBuilder } from '../request/request-builder.js';
import type { StateParts } from '../state/state-parts.js';
import { McpConnections } from './mcp-connections.js';
import { ToolRunner } from './tool-runner.js';

/** The tools room's parts: the MCP servers whose tools the model may call, and the runner of each call. */
export interface ToolParts {
  mcp: McpConnections;
  toolRunner: ToolRunner;
}

/** The tools room's parts, tied to the request builder: what was used or found stays in its definitions. */
export function assembleToolParts(input: {
  config: Config;
  tools: ToolRegistry;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  appState: AppState;
  conversation: Conversation;
  settings: ModelSettings;
  requests: RequestBuilder;
  state: StateParts;
  interactive: boolean;
  autoConfirm: 'yes' | 'no' | undefined;
  now: () => Date;
  /** The budget gate (compaction-runner.ts): room is made before a shortened output's share is said. */
  makeRoom: () => Promise<unknown>;
  /** Written (synchronously) before the call runs: a kill while it runs leaves its outcome unknown, not "not run". */
  onToolStarted: (started: StartedToolCall) => void;
}): ToolParts {
  const { config, tools, requests, state } = input;
  const mcp = new McpConnections({
    servers: config.mcp_servers,
    cwd: input.cwd,
    env: input.env,
    version: VERSION,
    tools,
    requests,
    screen: state.screen,
    ask: state.ask,
    queue: state.queue,
    appState: input.appState,
    interactive: input.interactive,
  });
  requests.mcpSettled = () => mcp.settled;
  const toolRunner = new ToolRunner({
    mcp,
    tools,
    settings: input.settings,
    config: config.tools,
    cwd: input.cwd,
    conversation: input.conversation,
    shortenedForModel: (message) => requests.plan()?.shortened.get(message),
    makeRoom: input.makeRoom,
    screen: state.screen,
    ask: state.ask,
    autoConfirm: input.autoConfirm,
    now: input.now,
    onToolUsed: (name) => requests.touchTools([name]),
    deferredTools: () => requests.frame()?.definitions.deferred.map((schema) => schema.function.name) ?? [],
    onToolStarted: input.onToolStarted,
  });
  return { mcp, toolRunner };
}
