import type { JSONSchemaObject } from '../backend/interfaces.js';
import type { Message } from '../conversation/message.js';

/** What a tool may touch and how long it may take; injected so tools stay testable. */
export interface ToolContext {
  /** Working directory: the root of the file sandbox and where commands run. */
  cwd: string;
  /** Further directories file tools may use besides `cwd` (absolute, `~/…` or relative to `cwd`). */
  allowedPaths: string[];
  /** Aborts a running tool (Ctrl+C); tools that take time honour it. */
  signal?: AbortSignal;
  /** How long `run_command` may run before its process group is killed, and a `search_files` pattern may match. */
  commandTimeoutMs: number;
  /** The clock, injected so `get_time` is deterministic in tests. */
  now: () => Date;
  /** The conversation's whole transcript, compacted messages included (`recall` searches it). */
  history?: () => readonly Message[];
  /** Told how far a long call has got (an MCP server's progress notifications), for the status line. */
  onProgress?: (text: string) => void;
}

/** The result of one tool run: `output` goes to the model, `details` feed the summary line. */
export interface ToolOutcome {
  ok: boolean;
  output: string;
  /** Facts for the summary line, e.g. `{totalLines: 340}`; `error`/`skipped` explain a failure. */
  details?: Record<string, unknown>;
}

/** One line of a {@link ToolPreview}: its kind picks the colour (a diff's `+`, `-`, `@@`). */
export interface PreviewLine {
  kind: 'add' | 'remove' | 'context' | 'hunk';
  text: string;
}

/** What a call will do, shown under its confirmation question (e.g. the diff of a write). */
export interface ToolPreview {
  /** One line saying what it is, e.g. `new file, 12 lines` or `+3 −1 lines`. */
  title: string;
  /** The first lines of the preview. */
  lines: PreviewLine[];
  /** Lines of the preview left out after `lines`. */
  more: number;
}

/** What an "always" answer to one call approves; see {@link Tool.approvalScope}. */
export interface ApprovalScope<A = Record<string, unknown>> {
  /** As the prompt and `/tools` show it, e.g. `npm test …` or `notes/todo.md`. */
  scope: string;
  covers(args: A, ctx: ToolContext): boolean;
}

/** A tool the model can call: its schema, how to run it and how to summarize a run in one line. */
export interface Tool<A = Record<string, unknown>> {
  name: string;
  description: string;
  parameters: JSONSchemaObject;
  /** The argument shown on the UI line and in confirmations, e.g. the path or the command. */
  keyArgument(args: A): string;
  run(args: A, ctx: ToolContext): Promise<ToolOutcome>;
  /**
   * How far an "always" answer to this call reaches (e.g. the command's leading words, the path):
   * how it is shown and which later calls it covers. Null: only this one call can be approved.
   * Without this method, "always" approves every call of the tool.
   */
  approvalScope?(args: A, ctx: ToolContext): ApprovalScope<A> | null;
  /**
   * Why the call would be refused without running (a path the sandbox refuses), checked before
   * the user is asked: approving a call that cannot run is a question for nothing.
   */
  refusal?(args: A, ctx: ToolContext): ToolOutcome | undefined;
  /** What the call will do, for its confirmation question (read-only: nothing changes yet). */
  preview?(args: A, ctx: ToolContext): Promise<ToolPreview | undefined>;
  /** Deterministic one-line summary of a run, kept out-of-band through compaction. */
  summaryLine(args: A, outcome: ToolOutcome): string;
  /** Set for a tool of an MCP server: which server and tool it calls, and whether it asks first. */
  mcp?: McpToolOrigin;
}

/** Where an MCP tool comes from. */
export interface McpToolOrigin {
  server: string;
  /** The tool's own name at the server (the model sees `<server>__<tool>`). */
  tool: string;
  /** The server's `confirm:` key: ask before each call until approved with "always". */
  confirm: boolean;
}
