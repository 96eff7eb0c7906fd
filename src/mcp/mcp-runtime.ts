// What the chat loads, after its first frame, when MCP servers are configured: the SDK and
// everything that talks to it, in one lazy chunk.
export { type McpServerStatus, McpServers } from './mcp-servers.js';
export { type ProjectServers, readProjectServers, serverLaunchLine } from './project-servers.js';
