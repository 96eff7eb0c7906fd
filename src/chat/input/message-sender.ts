import { prepareUserMessage } from '../../attachments/prepare-message.js';
import type { ConversationCommands } from '../../commands/command-host.js';
import type { Config } from '../../config/schema.js';
import type { Conversation } from '../../conversation/conversation.js';
import { formatTokens } from '../../conversation/format-tokens.js';
import type { WireMessage } from '../../conversation/message.js';
import { formatRecall, searchHistory } from '../../conversation/recall-search.js';
import type { CompactionRunner } from '../compaction/compaction-runner.js';
import type { ModelConnector } from '../model/model-connector.js';
import type { ConnectedModel } from '../request/model-selection.js';
import type { ModelSettings } from '../request/model-settings.js';
import type { RequestBuilder } from '../request/request-builder.js';
import type { RequestPlan } from '../request/request-plan.js';
import type { AskDialog } from '../state/dialog-queue.js';
import type { ScreenLog } from '../state/screen-log.js';
import type { TurnOutcome } from '../turn/turn-outcome.js';
import type { TurnRunner } from '../turn/turn-runner.js';

/** What the sender works with. */
export interface MessageSenderDeps {
  config: Config;
  cwd: string;
  conversation: Conversation;
  settings: ModelSettings;
  requests: RequestBuilder;
  connector: Pick<ModelConnector, 'connect'>;
  compactions: Pick<CompactionRunner, 'makeRoom'>;
  turns: Pick<TurnRunner, 'run' | 'retryable' | 'forgetFailure' | 'holdUnsent'>;
  screen: ScreenLog;
  ask: AskDialog;
  /** Forgets the running chat's state and starts a new session (`/clear`). */
  startNewConversation: () => void;
  /** False in one-shot mode: nobody can press Enter, edit a message or answer a question. */
  interactive: boolean;
}

/**
 * The send pipeline: a user message is connected, attached, checked against the window,
 * appended, compacted for and run as a turn; and what asks again (`/retry`, an empty Enter).
 */
export class MessageSender implements ConversationCommands {
  /** A message typed while no model was reachable, sent by the next successful retry. */
  private unsent: string | undefined;

  constructor(private readonly deps: MessageSenderDeps) {}

  /** Connects to the server and the model chosen for this chat. */
  connect(): Promise<ConnectedModel | undefined> {
    return this.deps.connector.connect(this.unsent !== undefined);
  }

  /** Whether an empty Enter has something to do: connect again, or run the failed turn again. */
  get hasRetry(): boolean {
    return !this.deps.settings.connected || this.deps.turns.retryable;
  }

  /** An empty Enter: retries what failed (the connection, or the last turn), else nothing. */
  async retry(): Promise<void> {
    const connected = this.deps.settings.connected;
    if (!connected) {
      if (this.unsent !== undefined) await this.send(this.unsent);
      else await this.connect();
    } else if (this.deps.turns.retryable) await this.deps.turns.run(connected);
  }

  /** Starts a turn with the user's message (connecting first if need be) and runs it; what it came to. */
  async send(text: string): Promise<TurnOutcome> {
    const { conversation, compactions, screen, turns } = this.deps;
    const notSent: TurnOutcome = { end: 'not-sent', compactionFailed: false };
    let connected = this.deps.settings.connected;
    if (!connected) {
      // Kept until the server answers: an empty Enter sends it then (nothing typed is lost).
      this.unsent = text;
      connected = await this.connect();
      if (!connected) return notSent;
    }
    this.unsent = undefined;
    const user = await this.withAttachments(connected, text);
    if (!user) return notSent;
    const { content, images } = user.message;
    const fits = await this.fitsOrSendAnyway(connected, { role: 'user', content, images });
    if (fits === 'not-sent') return notSent;
    conversation.startTurn();
    conversation.append({ role: 'user', ...user.message, ...(fits === 'anyway' ? { oversized: true } : {}) });
    turns.forgetFailure();
    // The gate the turn's every request passes, run here first so that the report of a
    // compaction comes on screen before the message it made room for. The message is appended
    // first so the plan keeps it as the newest turn and may summarize the one before.
    const gate = await compactions.makeRoom({ saysCancel: false });
    const { attachments } = user.message;
    screen.push({ kind: 'user', id: screen.itemId(), text, attachments });
    for (const warning of user.warnings) screen.notice('warning', warning);
    const compactionFailed = gate.end === 'failed';
    if (gate.end === 'cancelled') return { end: turns.holdUnsent(), compactionFailed };
    if (fits === 'anyway') this.tellWhatIsCut(connected, gate.plan);
    // The plan the gate let through is the turn's first request, sent as it is (not weighed again).
    const outcome = await turns.run(connected, gate.plan);
    return { ...outcome, compactionFailed: outcome.compactionFailed || compactionFailed };
  }

  // ── ConversationCommands ─────────────────────────────────────────────────────────────────

  clear(): void {
    this.deps.startNewConversation();
    this.deps.screen.notice('success', 'New conversation.');
  }

  recall(query: string): string {
    return formatRecall(query, searchHistory(this.deps.conversation.transcript, query));
  }

  async retryReply(): Promise<void> {
    const { conversation, settings, requests, turns, compactions, screen } = this.deps;
    const connected = settings.connected;
    if (!connected) {
      screen.notice('error', 'Not connected to a model yet.');
      return;
    }
    const user = conversation.lastUserMessage();
    if (!user) {
      screen.notice('info', 'Nothing to retry: no message has been sent yet.');
      return;
    }
    const replaced = conversation.replaceLastReplies();
    turns.forgetFailure();
    // The server's last count included the reply that is now left out.
    requests.resetMeter();
    const line = user.content.trim().split('\n')[0];
    const quoted = line.length > 60 ? `${line.slice(0, 59)}…` : line;
    screen.notice(
      'info',
      replaced.length
        ? `Regenerating the reply to "${quoted}"; the old one stays in /history, marked replaced.`
        : `Asking again for a reply to "${quoted}".`,
    );
    const gate = await compactions.makeRoom({ saysCancel: false });
    if (gate.end === 'cancelled') {
      turns.holdUnsent();
      return;
    }
    await turns.run(connected, gate.plan);
  }

  // ── the pipeline's steps ─────────────────────────────────────────────────────────────────

  /**
   * A message that cannot fit the window even after compaction is never sent silently to be cut
   * by Ollama: the user is told the numbers and chooses to send it anyway, edit it or grow the window.
   * Sending it anyway is a decision about this one message: nothing else changes (no compaction
   * is run for its turn, none counts as failed); on the next turn it is compacted like any other.
   */
  private async fitsOrSendAnyway(
    connected: ConnectedModel,
    user: WireMessage,
  ): Promise<'fits' | 'anyway' | 'not-sent'> {
    const { requests, screen, ask, interactive } = this.deps;
    // In the frame of the plan the message will go in: its system message and tool definitions.
    const figures = requests.smallestRequestWith(user);
    if (!figures || figures.request <= connected.numCtx) return 'fits';
    const { request: smallest, message } = figures;
    screen.notice(
      interactive ? 'warning' : 'error',
      `This message is about ${formatTokens(message)} tokens; even after compaction the request carrying it would be about ${formatTokens(smallest)} tokens, more than num_ctx ${formatTokens(connected.numCtx)}. Sent as it is, Ollama would cut it without notice.`,
    );
    const key = await ask({ kind: 'send-oversized', question: 'Send it anyway?', choices: 'y/n' });
    if (key.toLowerCase() === 'y') return 'anyway';
    const trained = connected.info.trainedContext;
    const most = trained ? ` (${connected.name} takes up to ${formatTokens(trained)})` : '';
    screen.notice(
      interactive ? 'info' : 'error',
      interactive
        ? `Not sent. Shorten it (↑ brings it back), or give the model a larger window with /set num_ctx <tokens>${most}.`
        : `Not sent. Shorten the prompt, or give the model a larger window with --num-ctx <tokens>${most}.`,
    );
    return 'not-sent';
  }

  /** Says once, plainly, what the model will not see of `plan`'s request, sent over its window. */
  private tellWhatIsCut(connected: ConnectedModel, plan: RequestPlan | undefined): void {
    const { screen } = this.deps;
    const request = plan?.estimate ?? 0;
    const over = Math.max(0, request - connected.numCtx);
    screen.notice(
      'warning',
      `Sent anyway: the request is about ${formatTokens(request)} tokens and num_ctx is ${formatTokens(connected.numCtx)}, so Ollama cuts it: the model will not see the earlier messages of this chat (the system prompt and summary stay) nor about ${formatTokens(over)} tokens of this message. On the next turn it is compacted like any other message.`,
    );
  }

  /** The message with the files its `@path`s name; undefined, each reason shown, when one cannot go. */
  private async withAttachments(connected: ConnectedModel, text: string) {
    const { config, cwd, screen, interactive } = this.deps;
    const { tools, attachments } = config;
    const prepared = await prepareUserMessage(text, {
      cwd,
      allowedPaths: tools.allowed_paths,
      limits: { maxTextBytes: attachments.max_file_bytes, maxImageBytes: attachments.max_image_bytes },
      model: { name: connected.name, capabilities: connected.info.capabilities },
    });
    if (prepared.ok) return prepared;
    for (const error of prepared.errors) screen.notice('error', error);
    if (interactive) screen.notice('info', 'Not sent (↑ brings it back).');
    return undefined;
  }
}
