/**
 * Most tools kept of one server: 10,000 took ~780 MB and froze /mcp and /tools for seconds; no
 * model chooses among more, and find_tools searches what is kept.
 */
export const MAX_TOOLS_PER_SERVER = 1000;

/** Where one MCP server stands, as `/mcp` shows it. */
export type ServerState =
  | { kind: 'connecting' }
  /** `listed`: how many it listed, when more than the {@link MAX_TOOLS_PER_SERVER} kept. */
  | { kind: 'ready'; tools: number; listed?: number }
  /** `stderr`: the last lines it wrote, for the report. */
  | { kind: 'failed'; reason: string; stderr: string[] }
  | { kind: 'disabled'; reason: string };

/** One tool as a server listed it (`tools/list`), before it is named for the model. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/** What a running call may be told while it runs. */
export interface CallOptions {
  signal?: AbortSignal;
  /** `notifications/progress` of this call: the progress so far, its total when known, a message. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}
