import type { InstalledModel, ModelInfo, ThinkSetting } from '../../src/backend/interfaces.js';
import type {
  CommandHost,
  NoticeLevel,
  SessionCommands,
  ToolApproval,
  ToolState,
} from '../../src/commands/command-host.js';
import type { ContextBreakdown } from '../../src/compaction/context-breakdown.js';
import type { CompactionRecord } from '../../src/conversation/compaction-record.js';

/** A recording CommandHost: state is plain fields, every effect is logged for assertions. */
export class FakeHost implements CommandHost {
  notices: { level: NoticeLevel; text: string }[] = [];
  shown: string[] = [];
  exited = 0;
  cleared = 0;
  columns = 80;
  model: string | undefined = 'qwen3:latest';
  numCtx: number | undefined = 8192;
  numCtxSource: string | undefined = 'default';
  modelInfo: ModelInfo | undefined;
  optionsSetInChat = new Set<string>();
  installed: InstalledModel[] = [];
  switchedTo: string[] = [];
  system: string | undefined;
  modelSystem: string | undefined;
  /** What `setOption('num_ctx', …)` puts in force, as a capping server would (default: as asked). */
  numCtxCap: number | undefined;
  options: Record<string, unknown> = {};
  think: ThinkSetting | undefined;
  supportsThinking = true;
  compactCalls: (string | undefined)[] = [];
  compaction: CompactionRecord | undefined;
  breakdown: ContextBreakdown | undefined;
  toolStates: ToolState[] = [];
  lastTool: { name: string; output: string } | undefined;
  /** Session commands called, as `name args`. */
  sessionCalls: string[] = [];
  sessions: SessionCommands = {
    list: () => void this.sessionCalls.push('list'),
    resume: async (query) => void this.sessionCalls.push(`resume ${query}`),
    rename: (name) => void this.sessionCalls.push(`rename ${name}`),
    delete: async (query) => void this.sessionCalls.push(`delete ${query}`),
    save: (file) => void this.sessionCalls.push(`save ${file}`),
    load: async (file) => void this.sessionCalls.push(`load ${file}`),
    history: () => void this.sessionCalls.push('history'),
    uncompact: () => void this.sessionCalls.push('uncompact'),
  };

  notice(level: NoticeLevel, text: string): void {
    this.notices.push({ level, text });
  }
  show(text: string): void {
    this.shown.push(text);
  }
  exit(): void {
    this.exited += 1;
  }
  clearConversation(): void {
    this.cleared += 1;
  }
  async listModels(): Promise<InstalledModel[]> {
    return this.installed;
  }
  async switchModel(name: string): Promise<void> {
    this.switchedTo.push(name);
    this.model = name;
  }
  setSystem(text: string | undefined): void {
    this.system = text;
  }
  optionSource(name: string): 'config' | '/set' {
    return this.optionsSetInChat.has(name) ? '/set' : 'config';
  }
  setOption(name: string, value: unknown): unknown {
    const inForce =
      name === 'num_ctx' && this.numCtxCap !== undefined ? Math.min(Number(value), this.numCtxCap) : value;
    this.options = { ...this.options, [name]: inForce };
    this.optionsSetInChat.add(name);
    return inForce;
  }
  unsetOption(name: string): void {
    const { [name]: _dropped, ...rest } = this.options;
    this.options = rest;
    this.optionsSetInChat.delete(name);
  }
  setThink(value: ThinkSetting): void {
    this.think = value;
  }
  async compact(focus: string | undefined): Promise<void> {
    this.compactCalls.push(focus);
  }
  retryCalls = 0;
  async retryReply(): Promise<void> {
    this.retryCalls++;
  }
  /** What `compactedToolCalls()` returns: the exact lines. */
  toolCalls: string[] = [];
  compactedToolCalls(): string[] {
    return this.toolCalls;
  }
  contextBreakdown(): ContextBreakdown | undefined {
    return this.breakdown;
  }
  tools(): ToolState[] {
    return this.toolStates;
  }
  setToolEnabled(name: string, enabled: boolean): boolean {
    const tool = this.toolStates.find((t) => t.name === name);
    if (!tool) return false;
    tool.enabled = enabled;
    return true;
  }
  /** What `toolApprovals()` returns; `revokeToolApprovals` removes from it. */
  approvals: ToolApproval[] = [];
  toolApprovals(): ToolApproval[] {
    return [...this.approvals];
  }
  revokeToolApprovals(which: number | 'all'): ToolApproval[] {
    return which === 'all' ? this.approvals.splice(0) : this.approvals.splice(which - 1, 1);
  }
  lastToolOutput(): { name: string; output: string } | undefined {
    return this.lastTool;
  }

  /** The only thing shown so far (fails the test when there is not exactly one). */
  get onlyShown(): string {
    if (this.shown.length !== 1) throw new Error(`expected one shown text, got ${this.shown.length}`);
    return this.shown[0];
  }
}
