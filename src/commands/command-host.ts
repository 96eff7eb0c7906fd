import type { ServerIdentity } from '../backend/chat-backend.js';
import type { InstalledModel, ModelInfo, ThinkSetting } from '../backend/interfaces.js';
import type { ContextBreakdown } from '../compaction/context-breakdown.js';
import type { KeepAlive } from '../config/keep-alive.js';
import type { CompactionRecord } from '../conversation/compaction-record.js';

/** Severity of a notice: picks its symbol and colour. */
export type NoticeLevel = 'info' | 'success' | 'warning' | 'error';

/** One tool as `/tools` lists it. */
export interface ToolState {
  name: string;
  description: string;
  enabled: boolean;
  needsConfirmation: boolean;
  /** Its definition is not in the requests now (tools.max_definitions_share): find_tools finds it. */
  deferred: boolean;
}

/** One "always" answer given this session, as `/tools` lists it. */
export interface ToolApproval {
  tool: string;
  /** What it covers, e.g. `npm test …` or `notes/todo.md`; '' for every call of the tool. */
  scope: string;
}

/** The screen: what a command shows, how wide it may be, and leaving. */
export interface ScreenCommands {
  notice(level: NoticeLevel, text: string): void;
  /** Shows a block of plain text (help, lists, the summary) in the conversation. */
  show(text: string): void;
  /** Columns a block of text may fill before it wraps, for lists that lay themselves out. */
  readonly columns: number;
  /** The last reply on screen (its Markdown source), for `/copy`; undefined before the first. */
  readonly lastReply: string | undefined;
  /**
   * Puts `text` on the clipboard through the terminal (OSC 52, ochat's own sequence: model output
   * can never send one); false where there is no terminal to ask (one-shot and line mode).
   */
  copy(text: string): boolean;
  exit(): void;
}

/** The conversation as a whole: starting afresh, asking again. */
export interface ConversationCommands {
  /** `/clear`: a new conversation (and a new session). */
  clear(): void;
  /** `/retry`: regenerates the reply to the last message; the old one is kept, marked replaced. */
  retryReply(): Promise<void>;
  /** `/recall TEXT`: the best passages of the whole history for a query, as `recall` gives the model. */
  recall(query: string): string;
}

/** The instruction files in force (AGENTS.md), as `/instructions` shows them. */
export interface InstructionsView {
  /** `instructions_files` (empty: none are read). */
  names: readonly string[];
  /** The files read, in the order the model gets them; `shown` as the user reads a path. */
  files: { shown: string; content: string; tokens: number }[];
  /** Files found but not read, each with why. */
  problems: string[];
}

/** The model chatted with and what it is told: name, window, system prompt, instructions, thinking. */
export interface ModelCommands {
  /** What answers at the host (absent: Ollama's native API). */
  readonly server?: ServerIdentity;
  readonly name: string | undefined;
  readonly numCtx: number | undefined;
  /** Where `numCtx` comes from: `flag`, `config`, `modelfile`, `default` or `/set`. */
  readonly numCtxSource: string | undefined;
  /** What /api/show said of the model in use (undefined before it is connected). */
  readonly info: ModelInfo | undefined;
  list(): Promise<InstalledModel[]>;
  switchTo(name: string): Promise<void>;

  /** The user's system prompt (config, `--system`, `/system`). */
  readonly system: string | undefined;
  /** The model's own Modelfile `SYSTEM`, in force when the user sets none. */
  readonly modelSystem: string | undefined;
  setSystem(text: string | undefined): void;
  /** The instruction files sent in the system message. */
  instructions(): InstructionsView;
  /** The notes `/pin` keeps verbatim in every request, in order. */
  readonly pins: readonly string[];
  /** Pins a note; undefined when pinned, else why not (it would not fit, with the figures). */
  pin(text: string): string | undefined;
  /** Removes pin `n` (from 1); false when there is none. */
  unpin(n: number): boolean;
  /** The user's last message as typed, for `/pin` alone (undefined: none yet). */
  lastUserText(): string | undefined;

  readonly think: ThinkSetting | undefined;
  readonly supportsThinking: boolean;
  setThink(value: ThinkSetting): void;

  /** `/pull`: downloads a model with progress (Ctrl+C stops it; Ollama resumes it next time). */
  pull(name: string): Promise<void>;
  /** `/ps`: the loaded models as `ollama ps` lists them. */
  showLoaded(): Promise<void>;
  /** `/unload`: frees the chat model at the server now (`ollama stop`). */
  unload(): Promise<void>;
}

/** The Ollama options sent with every request. */
export interface OptionCommands {
  /** Options in force (config, then `/set`). */
  readonly values: Readonly<Record<string, unknown>>;
  /** Whether an option in force comes from the config file or from `/set` in this chat. */
  source(name: string): 'config' | '/set';
  /** Sets an option; returns the value in force (`num_ctx` may be capped), undefined when refused (said on screen). */
  set(name: string, value: unknown): unknown;
  /** Drops an option, so the model's own default applies again (num_ctx: Modelfile, else ochat's default). */
  unset(name: string): void;
  /** `keep_alive` sent with every request; undefined: the server's default. */
  readonly keepAlive: KeepAlive | undefined;
  /** `/set keep_alive`: undefined returns to the server's default. */
  setKeepAlive(value: KeepAlive | undefined): void;
}

/** One MCP server as `/mcp` lists it. */
export interface McpServerView {
  name: string;
  /** `stdio: <command line>` or `http: <url>`. */
  endpoint: string;
  state: 'connecting' | 'ready' | 'failed' | 'disabled';
  /** Why it failed or is disabled. */
  reason?: string;
  /** Its tools as the model sees them. */
  tools: { name: string; description: string }[];
  /** How many tools it listed, when ochat keeps fewer (at most 1,000 a server). */
  listed?: number;
  /** The last lines it wrote to stderr. */
  stderr: string[];
  /** How much of its stderr was dropped, in words, when any was. */
  stderrNote?: string;
  /** Where it is configured: config.yml or the directory's .mcp.json. */
  origin: 'config' | '.mcp.json';
}

/** The MCP servers: `/mcp`. */
export interface McpCommands {
  servers(): McpServerView[];
  /** Restarts a server; false when none has that name. */
  restart(name: string): Promise<boolean>;
}

/** The tools the model may call, and the answers given to their confirmations. */
export interface ToolCommands {
  /** The MCP servers the tools of which the model may call. */
  readonly mcp: McpCommands;
  list(): ToolState[];
  setEnabled(name: string, enabled: boolean): boolean;
  /** The "always" answers given this session, oldest first (`/tools` numbers them from 1). */
  approvals(): ToolApproval[];
  /** Withdraws approval number `which` (from 1) or all of them; returns those withdrawn. */
  revokeApprovals(which: number | 'all'): ToolApproval[];
  lastOutput(): { name: string; output: string } | undefined;
}

/** Compaction: on demand, what the one in force kept, and how the window is spent. */
export interface CompactionCommands {
  compact(focus: string | undefined): Promise<void>;
  readonly record: CompactionRecord | undefined;
  /** The exact one-line summary of every tool call the compaction in force summarized, oldest first. */
  compactedToolCalls(): string[];
  breakdown(): ContextBreakdown | undefined;
}

/** What the session commands (`/sessions`, `/resume`, …) may do; each reports its own outcome. */
export interface SessionCommands {
  list(): void;
  resume(query: string): Promise<void>;
  rename(name: string): void;
  /** Asks before deleting. */
  delete(query: string): Promise<void>;
  save(file: string): void;
  load(file: string): Promise<void>;
  history(): void;
  uncompact(): void;
}

/**
 * What slash commands may do to the chat, by capability; each part is implemented by the part of
 * the chat that owns that state (chat/), and faked part by part in tests.
 */
export interface CommandHost {
  readonly screen: ScreenCommands;
  readonly conversation: ConversationCommands;
  readonly model: ModelCommands;
  readonly options: OptionCommands;
  readonly tools: ToolCommands;
  readonly compaction: CompactionCommands;
  readonly sessions: SessionCommands;
}
