import type { SessionCommands } from '../../commands/command-host.js';
import type { Conversation } from '../../conversation/conversation.js';
import { formatTokens } from '../../conversation/format-tokens.js';
import { nextToolCall, type StartedToolCall, unansweredToolCalls } from '../../conversation/turns.js';
import { formatSessionList } from '../../sessions/format-session-list.js';
import { anotherOchat, SessionNotFoundError } from '../../sessions/session-store.js';
import { describeError } from '../../text/describe-error.js';
import { formatWhen } from '../../text/format-when.js';
import { notRunToolCall } from '../../tools/execute.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { CompactionRunner } from '../compaction/compaction-runner.js';
import type { ModelConnector } from '../model/model-connector.js';
import type { ModelSettings } from '../request/model-settings.js';
import type { RequestBuilder } from '../request/request-builder.js';
import type { AskDialog } from '../state/dialog-queue.js';
import type { ScreenLog } from '../state/screen-log.js';
import { transcriptItems } from '../state/transcript-items.js';
import type { SessionKeeper } from './session-keeper.js';

/** What the session commands work with. */
export interface ChatSessionsDeps {
  keeper: SessionKeeper;
  conversation: Conversation;
  settings: ModelSettings;
  requests: RequestBuilder;
  connector: ModelConnector;
  compactions: CompactionRunner;
  tools: ToolRegistry;
  screen: ScreenLog;
  ask: AskDialog;
  /** Forgets the running chat's state (retry, tool output, paused compaction, meter). */
  resetChat: () => void;
}

/** The session commands against the live chat: resume puts a saved session's state into it. */
export class ChatSessions implements SessionCommands {
  constructor(private readonly deps: ChatSessionsDeps) {}

  /**
   * `ochat -r` on a terminal: this directory's sessions, newest first, with their first message
   * and age, to pick from — one as well: Esc then starts a new session, as the README promises;
   * `true` when there is none.
   */
  private async pickHere(): Promise<string | true | undefined> {
    const { keeper, screen, ask } = this.deps;
    const here = keeper.listHere();
    if (here.length === 0) return true;
    const now = new Date();
    const picked = await ask({
      kind: 'pick-session',
      question: 'Continue which session?',
      choices: '↑/↓, Enter · esc: a new one',
      options: here.map((session) => ({
        value: session.id,
        label: [session.name && `"${session.name}"`, session.firstUserLine ?? '(no message yet)']
          .filter(Boolean)
          .join(' · '),
        detail: `${formatWhen(session.lastActivity, now)} · ${session.messages} messages · ${session.id}`,
      })),
    });
    if (picked) return picked;
    screen.notice('info', 'A new session; /resume <id|name> continues a saved one (/sessions lists them).');
    return undefined;
  }

  /** How to continue the current session from the shell, `ochat -r <name-or-id>`; undefined when nothing was saved. */
  resumeCommand(): string | undefined {
    const { keeper } = this.deps;
    const id = keeper.id;
    if (id === undefined || keeper.readOnly !== undefined) return undefined;
    const name = keeper.list().find((session) => session.id === id)?.name;
    const which = name ?? id;
    return `ochat -r ${/^[\w.:-]+$/.test(which) ? which : `'${which.replaceAll("'", "'\\''")}'`}`;
  }

  list(): void {
    const { keeper, screen } = this.deps;
    if (!keeper.enabled) {
      screen.notice('info', 'Sessions are not saved in this mode.');
      return;
    }
    screen.notice('info', formatSessionList(keeper.list(), keeper.id));
  }

  /**
   * Continues session `query` (id, id prefix or name; `true`: this directory's newest, or with
   * `pick` the one the user picks from this directory's sessions).
   */
  async resume(query: string | true, pick = false): Promise<void> {
    const { keeper, conversation, connector, screen, requests } = this.deps;
    const modelSettings = this.deps.settings;
    if (query === true && pick) {
      const picked = await this.pickHere();
      if (picked === undefined) return;
      query = picked;
    }
    let id: string;
    try {
      const found = keeper.find(query);
      if (!found) {
        screen.notice('info', 'No saved session in this directory yet; this is a new one.');
        return;
      }
      id = found.id;
    } catch (error) {
      // Inside the chat the list is a command away (the error's own hint is the command line's).
      const unmatched = error instanceof SessionNotFoundError ? error.unmatched : undefined;
      screen.notice(
        'error',
        unmatched === undefined ? describeError(error) : `No session "${unmatched}". /sessions lists them.`,
      );
      return;
    }
    if (id === keeper.id) {
      screen.notice('info', 'That is the current session.');
      return;
    }
    let resumed: ReturnType<SessionKeeper['resume']>;
    try {
      resumed = keeper.resume(id);
      const holder = resumed.opened.holder;
      // Held by a live ochat (and not read-only for another reason): a copy can be written to.
      if (holder !== undefined && resumed.opened.parsed.readOnly === undefined) {
        const key = await this.deps.ask({
          kind: 'held-session',
          question: `Session ${id} is open in ${anotherOchat(holder)}. Continue it in a new session (y), or open it read-only (n)?`,
          choices: 'y/n',
        });
        if (key.toLowerCase() === 'y') {
          const copy = keeper.copy(id);
          resumed = keeper.resume(copy);
          screen.notice(
            'info',
            `Continuing in new session ${copy}, a copy of ${id}; the other ochat keeps ${id}.`,
          );
        }
      }
    } catch (error) {
      screen.notice('error', describeError(error));
      return;
    }
    const { opened, replayed } = resumed;
    id = opened.parsed.header.id;
    const { settings } = replayed;
    this.deps.resetChat();
    conversation.restore(replayed.messages, replayed.records);
    modelSettings.restore(settings);
    // Without a saved meter, the request is estimated afresh.
    requests.meter.restore(settings.meter ?? { charsPerToken: requests.meter.charsPerToken });
    // Tool outputs sent shortened are sent so again.
    requests.restoreShortened(settings.shortened);
    // The same tools used and found: the same definitions sent when they are deferred.
    requests.toolRecency.restore(settings.toolRecency ?? { used: [], found: [] });
    this.deps.compactions.restorePaused(settings.autoCompactionPaused ?? false);
    for (const item of transcriptItems({
      entries: opened.parsed.entries,
      itemId: () => screen.itemId(),
      keyArgument: (tool, args) => this.keyArgument(tool, args),
    }))
      screen.push(item);
    this.answerUnrunCalls(settings.toolStarted);
    for (const notice of opened.parsed.notices) screen.notice('warning', notice);
    const name = settings.name ? ` "${settings.name}"` : '';
    screen.notice('success', `Resumed session ${id}${name}: ${replayed.messages.length} messages.`);
    if (opened.readOnly)
      screen.notice(
        'warning',
        `Read-only: ${opened.readOnly}. What you send now is not saved; /new starts a saved session.`,
      );
    const connected = modelSettings.connected;
    const reopen =
      !connected ||
      Boolean(settings.model && (connected.name !== settings.model || connected.numCtx !== settings.numCtx));
    // A model opened for it starts from its saved meter; one open already has it (restoreSettings).
    connector.resumeWith({
      model: settings.model,
      numCtx: settings.numCtx,
      meter: reopen ? settings.meter : undefined,
    });
    if (connected && reopen && settings.model) {
      try {
        await connector.open(settings.model);
      } catch (error) {
        screen.notice('error', describeError(error));
      }
    }
    requests.refreshUsed();
  }

  /**
   * Calls the session was closed on get a result, appended and shown: a request with calls but no
   * results is refused by servers other than Ollama and confuses models. The one that had begun
   * to run (`started`, killed while it ran) is interrupted, its outcome unknown; the rest were
   * not run (killed while a question was open, or before their turn).
   */
  private answerUnrunCalls(started: StartedToolCall | undefined): void {
    const { conversation, tools, screen } = this.deps;
    const next = nextToolCall(conversation.transcript);
    const interrupted = next && started && next.message === started.message && next.call === started.call;
    for (const [i, call] of unansweredToolCalls(conversation.transcript).entries()) {
      const execution = notRunToolCall(tools, call, i === 0 && interrupted);
      conversation.append({
        role: 'tool',
        content: execution.outcome.output,
        tool_name: execution.name,
        tool_args: execution.args,
        tool_summary: execution.summary,
      });
      screen.push({
        kind: 'tool',
        id: screen.itemId(),
        name: execution.name,
        keyArgument: execution.keyArgument,
        summary: execution.summary,
        ok: false,
      });
    }
  }

  private keyArgument(tool: string, args: Record<string, unknown>): string {
    try {
      return String(this.deps.tools.get(tool)?.keyArgument(args) ?? '');
    } catch {
      return '';
    }
  }

  rename(name: string): void {
    const { keeper, screen } = this.deps;
    if (!keeper.enabled) {
      screen.notice('info', 'Sessions are not saved in this mode.');
      return;
    }
    keeper.rename(name);
    screen.notice('success', `Session named "${name}"; ochat --resume "${name}" continues it.`);
  }

  async delete(query: string): Promise<void> {
    const { keeper, screen } = this.deps;
    try {
      const found = keeper.find(query);
      if (!found) return;
      if (found.id === keeper.id) {
        screen.notice('error', 'That is the current session; /new first.');
        return;
      }
      const first = found.firstUserLine ? `, "${found.firstUserLine.slice(0, 40)}"` : '';
      const key = await this.deps.ask({
        kind: 'confirm-delete',
        question: `Delete session ${found.id} (${found.messages} messages${first})?`,
        choices: 'y/n',
      });
      if (key.toLowerCase() !== 'y') {
        screen.notice('info', 'Kept.');
        return;
      }
      keeper.delete(found.id);
      screen.notice('success', `Deleted session ${found.id}.`);
    } catch (error) {
      screen.notice('error', describeError(error));
    }
  }

  save(file: string): void {
    const { keeper, screen } = this.deps;
    try {
      screen.notice('success', `Saved to ${keeper.save(file)}.`);
    } catch (error) {
      screen.notice('error', `Not saved: ${describeError(error)}`);
    }
  }

  async load(file: string): Promise<void> {
    const { keeper, screen } = this.deps;
    let id: string;
    try {
      id = keeper.load(file);
    } catch (error) {
      screen.notice('error', `Not loaded: ${describeError(error)}`);
      return;
    }
    screen.notice('success', `Imported ${file} as session ${id}.`);
    await this.resume(id);
  }

  history(): void {
    const { keeper, screen } = this.deps;
    try {
      // `[12] assistant: …` rows continue under the text, not under the number.
      screen.notice('info', keeper.history(), 4);
    } catch (error) {
      screen.notice('error', describeError(error));
    }
  }

  /** Puts the record before the latest back in force, if the view it gives still fits. */
  uncompact(): void {
    const { conversation, settings, requests, compactions, keeper, screen } = this.deps;
    const connected = settings.connected;
    if (!conversation.latestRecord) {
      screen.notice('info', 'Nothing to uncompact: no compaction is in force.');
      return;
    }
    if (!connected) {
      screen.notice('error', 'Not connected to a model yet.');
      return;
    }
    const records = [...conversation.records];
    conversation.dropLatestRecord();
    const plan = requests.plan();
    const used = requests.used(plan);
    const reserve = plan ? compactions.tellScaled(plan.budgets).reserve : 0;
    if (used + reserve > connected.numCtx) {
      conversation.restore(conversation.transcript, records);
      screen.notice(
        'warning',
        `Cannot uncompact: the view before the last compaction takes about ${formatTokens(used)} tokens, more than num_ctx ${formatTokens(connected.numCtx)} leaves after the reserve of ${formatTokens(reserve)}.`,
      );
      return;
    }
    keeper.uncompacted();
    screen.notice(
      'success',
      `Uncompacted: the view from before the last compaction is back (about ${formatTokens(used)} of ${formatTokens(connected.numCtx)} tokens).`,
    );
    requests.refreshUsed();
  }
}
