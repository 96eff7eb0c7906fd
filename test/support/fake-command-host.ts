import type { InstalledModel, ModelInfo, ThinkSetting } from '../../src/backend/interfaces.js';
import type {
  CommandHost,
  CompactionCommands,
  ConversationCommands,
  InstructionsView,
  McpServerView,
  ModelCommands,
  NoticeLevel,
  OptionCommands,
  ScreenCommands,
  SessionCommands,
  ToolApproval,
  ToolCommands,
  ToolState,
} from '../../src/commands/command-host.js';
import type { ContextBreakdown } from '../../src/compaction/context-breakdown.js';
import type { KeepAlive } from '../../src/config/keep-alive.js';
import type { CompactionRecord } from '../../src/conversation/compaction-record.js';

/** A part of the host whose read-only state a test may set. */
type Settable<T> = { -readonly [K in keyof T]: T[K] };

/** A recording CommandHost, part by part: state is plain fields, every effect is logged for assertions. */
export class FakeHost implements CommandHost {
  notices: { level: NoticeLevel; text: string }[] = [];
  shown: string[] = [];
  exited = 0;
  cleared = 0;
  retryCalls = 0;
  installed: InstalledModel[] = [];
  switchedTo: string[] = [];
  /** Model lifecycle calls, in order: `pull <name>`, `ps`, `unload`. */
  lifecycleCalls: string[] = [];
  /** What `options.set('num_ctx', …)` puts in force, as a capping server would (default: as asked). */
  numCtxCap: number | undefined;
  optionsSetInChat = new Set<string>();
  compactCalls: (string | undefined)[] = [];
  /** What `compaction.compactedToolCalls()` returns: the exact lines. */
  toolCalls: string[] = [];
  breakdown: ContextBreakdown | undefined;
  toolStates: ToolState[] = [];
  /** What `tools.approvals()` returns; `tools.revokeApprovals` removes from it. */
  approvals: ToolApproval[] = [];
  lastTool: { name: string; output: string } | undefined;
  /** Session commands called, as `name args`. */
  sessionCalls: string[] = [];
  /** What `screen.copy` was given. */
  copied: string[] = [];
  /** What `model.instructions()` returns. */
  instructions: InstructionsView = { names: ['AGENTS.md'], files: [], problems: [] };

  readonly screen: Settable<ScreenCommands> = {
    notice: (level, text) => void this.notices.push({ level, text }),
    show: (text) => void this.shown.push(text),
    columns: 80,
    lastReply: undefined,
    copy: (text) => {
      this.copied.push(text);
      return true;
    },
    exit: () => {
      this.exited += 1;
    },
  };

  readonly conversation: ConversationCommands = {
    clear: () => {
      this.cleared += 1;
    },
    retryReply: async () => {
      this.retryCalls += 1;
    },
    recall: (query) => `recalled ${query}`,
  };

  /** What `pin` answers (undefined: it pins). */
  pinRefusal: string | undefined;
  /** The user's last message, for `/pin` alone. */
  lastUserText: string | undefined;

  readonly model: Settable<ModelCommands> = {
    name: 'qwen3:latest' as string | undefined,
    numCtx: 8192 as number | undefined,
    numCtxSource: 'default' as string | undefined,
    info: undefined as ModelInfo | undefined,
    system: undefined as string | undefined,
    modelSystem: undefined as string | undefined,
    think: undefined as ThinkSetting | undefined,
    supportsThinking: true,
    list: async () => this.installed,
    switchTo: async (name) => {
      this.switchedTo.push(name);
      this.model.name = name;
    },
    setSystem: (text) => {
      this.model.system = text;
    },
    instructions: () => this.instructions,
    pins: [] as readonly string[],
    pin: (text) => {
      if (this.pinRefusal) return this.pinRefusal;
      this.model.pins = [...this.model.pins, text];
      return undefined;
    },
    unpin: (n) => {
      if (n < 1 || n > this.model.pins.length) return false;
      this.model.pins = this.model.pins.filter((_, i) => i !== n - 1);
      return true;
    },
    lastUserText: () => this.lastUserText,
    setThink: (value) => {
      this.model.think = value;
    },
    pull: async (name) => void this.lifecycleCalls.push(`pull ${name}`),
    showLoaded: async () => void this.lifecycleCalls.push('ps'),
    unload: async () => void this.lifecycleCalls.push('unload'),
  };

  readonly options: Settable<OptionCommands> = {
    values: {} as Readonly<Record<string, unknown>>,
    source: (name) => (this.optionsSetInChat.has(name) ? '/set' : 'config'),
    set: (name, value) => {
      const inForce =
        name === 'num_ctx' && this.numCtxCap !== undefined ? Math.min(Number(value), this.numCtxCap) : value;
      this.options.values = { ...this.options.values, [name]: inForce };
      this.optionsSetInChat.add(name);
      return inForce;
    },
    unset: (name) => {
      const { [name]: _dropped, ...rest } = this.options.values;
      this.options.values = rest;
      this.optionsSetInChat.delete(name);
    },
    keepAlive: undefined as KeepAlive | undefined,
    setKeepAlive: (value) => {
      this.options.keepAlive = value;
    },
  };

  /** What `/mcp` lists. */
  mcpServers: McpServerView[] = [];
  mcpRestarted: string[] = [];

  readonly tools: ToolCommands = {
    mcp: {
      servers: () => this.mcpServers,
      restart: async (name) => {
        this.mcpRestarted.push(name);
        return this.mcpServers.some((s) => s.name === name);
      },
    },
    list: () => this.toolStates,
    setEnabled: (name, enabled) => {
      const tool = this.toolStates.find((t) => t.name === name);
      if (!tool) return false;
      tool.enabled = enabled;
      return true;
    },
    approvals: () => [...this.approvals],
    revokeApprovals: (which) =>
      which === 'all' ? this.approvals.splice(0) : this.approvals.splice(which - 1, 1),
    lastOutput: () => this.lastTool,
  };

  readonly compaction: Settable<CompactionCommands> = {
    compact: async (focus) => {
      this.compactCalls.push(focus);
    },
    record: undefined as CompactionRecord | undefined,
    compactedToolCalls: () => this.toolCalls,
    breakdown: () => this.breakdown,
  };

  readonly sessions: SessionCommands = {
    list: () => void this.sessionCalls.push('list'),
    resume: async (query) => void this.sessionCalls.push(`resume ${query}`),
    rename: (name) => void this.sessionCalls.push(`rename ${name}`),
    delete: async (query) => void this.sessionCalls.push(`delete ${query}`),
    save: (file) => void this.sessionCalls.push(`save ${file}`),
    load: async (file) => void this.sessionCalls.push(`load ${file}`),
    history: () => void this.sessionCalls.push('history'),
    uncompact: () => void this.sessionCalls.push('uncompact'),
  };

  /** The only thing shown so far (fails the test when there is not exactly one). */
  get onlyShown(): string {
    if (this.shown.length !== 1) throw new Error(`expected one shown text, got ${this.shown.length}`);
    return this.shown[0];
  }
}
