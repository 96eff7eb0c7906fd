import type { McpCommands, ToolApproval, ToolCommands, ToolState } from '../../commands/command-host.js';
import type { Config } from '../../config/schema.js';
import type { Conversation } from '../../conversation/conversation.js';
import type { Message, ReceivedToolCall } from '../../conversation/message.js';
import { nextToolCall, type StartedToolCall } from '../../conversation/turns.js';
import {
  type Approval,
  type ConfirmAnswer,
  type ConfirmRequest,
  createConfirmationPolicy,
  executeToolCall,
} from '../../tools/execute.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ModelSettings } from '../request/model-settings.js';
import type { AskDialog } from '../state/dialog-queue.js';
import type { ScreenLog } from '../state/screen-log.js';

/** What the tool runner works with. */
export interface ToolRunnerDeps {
  tools: ToolRegistry;
  /** Turns tools on and off (the list every request carries). */
  settings: Pick<ModelSettings, 'setToolEnabled'>;
  config: Config['tools'];
  /** The directory the tools are confined to. */
  cwd: string;
  conversation: Conversation;
  /** The chars of its head the next request gives the model of a tool output it shortens to fit (request-builder.ts). */
  shortenedForModel: (message: Message) => number | undefined;
  /**
   * Compacts the older turns when the request would not fit (the budget gate, compaction-runner.ts):
   * run before a shortened output's share is said, so the model gets, and the line says, what is
   * left once room was made.
   */
  makeRoom?: () => Promise<unknown>;
  screen: ScreenLog;
  ask: AskDialog;
  /** Answers confirmations without asking (one-shot mode: approve with --yes, else run none that needs one). */
  autoConfirm?: 'yes' | 'no';
  now: () => Date;
  /** Told of each tool called: the most recently used stay resident when definitions are deferred. */
  onToolUsed?: (name: string) => void;
  /** The tools whose definitions the next request leaves out, for find_tools to find (request-builder.ts). */
  deferredTools: () => readonly string[];
  /** The MCP servers, for `/mcp`. */
  mcp: McpCommands;
  /** Told when an approved call begins to run (where it is in the transcript), before it can have effects. */
  onToolStarted?: (call: StartedToolCall) => void;
}

/**
 * Runs the model's tool calls: asks for confirmation where the policy says so, appends each
 * result to the transcript and its one-line summary to the screen, and keeps the last output.
 */
export class ToolRunner implements ToolCommands {
  private readonly confirmation;
  private lastTool: { name: string; output: string } | undefined;

  /** The MCP servers, for `/mcp`. */
  readonly mcp: McpCommands;

  constructor(private readonly deps: ToolRunnerDeps) {
    this.mcp = deps.mcp;
    const confirmList = new Set<string>(deps.config.confirm);
    this.confirmation = createConfirmationPolicy(
      (name) => confirmList.has(name) || deps.tools.get(name)?.mcp?.confirm === true,
    );
  }

  /** Whether `name` asks before it runs (config `tools.confirm`, unless approved whole with "always"). */
  needsConfirmation(name: string): boolean {
    return this.confirmation.asksFirst(name);
  }

  /** Every tool, as `/tools` lists it. */
  list(): ToolState[] {
    const deferred = new Set(this.deps.deferredTools());
    return this.deps.tools.list().map((t) => ({
      name: t.tool.name,
      description: t.tool.description,
      enabled: t.enabled,
      needsConfirmation: this.needsConfirmation(t.tool.name),
      deferred: deferred.has(t.tool.name),
    }));
  }

  setEnabled(name: string, enabled: boolean): boolean {
    return this.deps.settings.setToolEnabled(name, enabled);
  }

  /** The "always" answers given this session, oldest first. */
  approvals(): ToolApproval[] {
    return this.confirmation.approvals().map(({ tool, scope }) => ({ tool, scope }));
  }

  /** Withdraws approval number `which` (from 1) or all of them; returns those withdrawn. */
  revokeApprovals(which: number | 'all'): ToolApproval[] {
    return this.confirmation.revoke(which).map(({ tool, scope }) => ({ tool, scope }));
  }

  /** The full output of the last tool run, for `/last`. */
  lastOutput(): { name: string; output: string } | undefined {
    return this.lastTool;
  }

  /** A new conversation: no tool has run in it. */
  reset(): void {
    this.lastTool = undefined;
  }

  /** Runs one call to its end (none once the turn was cancelled: the tool loop stops there). */
  async run(call: ReceivedToolCall, signal: AbortSignal): Promise<void> {
    const { config, screen } = this.deps;
    if (signal.aborted) return;
    const busy = `running ${call.function.name || 'a tool'}…`;
    screen.store.update({ busy, live: undefined });
    const execution = await executeToolCall(call, {
      registry: this.deps.tools,
      ctx: {
        cwd: this.deps.cwd,
        allowedPaths: config.allowed_paths,
        signal,
        commandTimeoutMs: config.command_timeout * 1000,
        now: this.deps.now,
        history: () => this.deps.conversation.transcript,
        // An MCP server's progress notifications, e.g. `running everything__slow… 3/10`.
        onProgress: (progress) => screen.store.update({ busy: `${busy} ${progress}` }),
      },
      needsConfirmation: this.confirmation.needsConfirmation,
      approve: this.confirmation.approve,
      confirm: (request) => this.confirm(request),
      onStart: () => {
        const started = nextToolCall(this.deps.conversation.transcript);
        if (started) this.deps.onToolStarted?.(started);
      },
    });
    const result = this.deps.conversation.append({
      role: 'tool',
      content: execution.outcome.output,
      tool_name: execution.name,
      tool_args: execution.args,
      tool_summary: execution.summary,
    });
    this.lastTool = { name: execution.name, output: execution.outcome.output };
    // Too big for the room as it is: make room first, then say how much of it the model gets.
    if (this.deps.makeRoom && this.deps.shortenedForModel(result) !== undefined) await this.deps.makeRoom();
    if (this.deps.tools.get(execution.name)) this.deps.onToolUsed?.(execution.name);
    screen.push({
      kind: 'tool',
      id: screen.itemId(),
      name: execution.name,
      keyArgument: execution.keyArgument,
      summary: withModelShare(execution.summary, this.deps.shortenedForModel(result)),
      ok: execution.outcome.ok,
    });
  }

  private async confirm(request: ConfirmRequest): Promise<ConfirmAnswer> {
    // Without --yes nobody can answer: the call is not run, and the model is not told it was declined.
    if (this.deps.autoConfirm) return { kind: this.deps.autoConfirm === 'yes' ? 'yes' : 'unasked' };
    const key = await this.deps.ask({
      kind: 'confirm-tool',
      question: `Allow ${request.tool} ${request.keyArgument}?`,
      choices: confirmChoices(request.approval),
      keys: request.approval ? ['y', 'n', 'a', 'i'] : ['y', 'n', 'i'],
      ...(request.preview && { preview: request.preview }),
    });
    switch (key.toLowerCase()) {
      case 'y':
        return { kind: 'yes' };
      case 'a':
        return request.approval ? { kind: 'always' } : { kind: 'yes' };
      case 'i': {
        const text = await this.deps.ask({
          kind: 'tool-instruction',
          question: 'Type an instruction for the model instead, then Enter',
          choices: 'Esc/Ctrl+C: decline',
        });
        // Esc, Ctrl+C or an empty Enter declines rather than sending an empty instruction.
        return text.trim() ? { kind: 'instruct', text } : { kind: 'no' };
      }
      default:
        return { kind: 'no' };
    }
  }
}

/**
 * A tool's one-line summary saying how much of the output the model gets when the window made
 * the request shorten it: what the screen says was sent is what was sent.
 */
export function withModelShare(summary: string, headChars: number | undefined): string {
  if (headChars === undefined) return summary;
  const share =
    headChars > 0
      ? `the model got the first ${headChars.toLocaleString('en')} chars`
      : 'the model got only this line';
  return summary.endsWith(')') ? `${summary.slice(0, -1)}; ${share})` : `${summary} (${share})`;
}

/** The answers offered, saying what "always" would cover, or why it is not offered. */
export function confirmChoices(approval: Approval | null): string {
  if (!approval) return '[y]es / [n]o / [i]nstruct · no "always" for this call';
  const always = approval.scope ? `"${approval.scope}"` : `every ${approval.tool} call`;
  return `[y]es / [n]o / [a]lways allow ${always} this session / [i]nstruct`;
}
