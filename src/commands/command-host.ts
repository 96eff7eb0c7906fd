import type { InstalledModel, ModelInfo, ThinkSetting } from '../backend/interfaces.js';
import type { ContextBreakdown } from '../compaction/context-breakdown.js';
import type { CompactionRecord } from '../conversation/compaction-record.js';

/** Severity of a notice: picks its symbol and colour. */
export type NoticeLevel = 'info' | 'success' | 'warning' | 'error';

/** The thinking setting: off, on, or an effort level for models that take one. */

/** One tool as `/tools` lists it. */
export interface ToolState {
  name: string;
  description: string;
  enabled: boolean;
  needsConfirmation: boolean;
}

/** One "always" answer given this session, as `/tools` lists it. */
export interface ToolApproval {
  tool: string;
  /** What it covers, e.g. `npm test …` or `notes/todo.md`; '' for every call of the tool. */
  scope: string;
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

/** What slash commands may do to the chat: the controller implements it, tests fake it. */
export interface CommandHost {
  notice(level: NoticeLevel, text: string): void;
  /** Shows a block of plain text (help, lists, the summary) in the conversation. */
  show(text: string): void;
  /** Columns a block of text may fill before it wraps, for lists that lay themselves out. */
  readonly columns: number;
  exit(): void;
  clearConversation(): void;

  readonly model: string | undefined;
  readonly numCtx: number | undefined;
  /** Where `numCtx` comes from: `flag`, `config`, `modelfile`, `default` or `/set`. */
  readonly numCtxSource: string | undefined;
  /** What /api/show said of the model in use (undefined before it is connected). */
  readonly modelInfo: ModelInfo | undefined;
  listModels(): Promise<InstalledModel[]>;
  switchModel(name: string): Promise<void>;

  /** The user's system prompt (config, `--system`, `/system`). */
  readonly system: string | undefined;
  /** The model's own Modelfile `SYSTEM`, in force when the user sets none. */
  readonly modelSystem: string | undefined;
  setSystem(text: string | undefined): void;

  /** Ollama options in force (config, then `/set`). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Whether an option in force comes from the config file or from `/set` in this chat. */
  optionSource(name: string): 'config' | '/set';
  /** Sets an option; returns the value in force (`num_ctx` may be capped). */
  setOption(name: string, value: unknown): unknown;
  /** Drops an option, so the model's own default applies again (num_ctx: Modelfile, else ochat's default). */
  unsetOption(name: string): void;

  readonly think: ThinkSetting | undefined;
  readonly supportsThinking: boolean;
  setThink(value: ThinkSetting): void;

  /** `/retry`: regenerates the reply to the last message; the old one is kept, marked replaced. */
  retryReply(): Promise<void>;

  compact(focus: string | undefined): Promise<void>;
  readonly compaction: CompactionRecord | undefined;
  /** The exact one-line summary of every tool call the compaction in force summarized, oldest first. */
  compactedToolCalls(): string[];
  contextBreakdown(): ContextBreakdown | undefined;

  tools(): ToolState[];
  setToolEnabled(name: string, enabled: boolean): boolean;
  /** The "always" answers given this session, oldest first (`/tools` numbers them from 1). */
  toolApprovals(): ToolApproval[];
  /** Withdraws approval number `which` (from 1) or all of them; returns those withdrawn. */
  revokeToolApprovals(which: number | 'all'): ToolApproval[];
  lastToolOutput(): { name: string; output: string } | undefined;

  /** Saved sessions: listing, resuming, exporting, history. */
  readonly sessions: SessionCommands;
}
