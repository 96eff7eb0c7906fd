/** Where one MCP server stands, as `/mcp` shows it. */
export type ServerState =
  | { kind: 'connecting' }
  | { kind: 'ready'; tools: number }
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
