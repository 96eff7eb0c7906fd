import { completeAttachmentPath } from '../attachments/path-completion.js';
import type { CompletionContext, CompletionEntry } from '../commands/command.js';
import type { CommandHost } from '../commands/command-host.js';
import type { CompactionRecord } from '../conversation/compaction-record.js';
import type { Message } from '../conversation/message.js';
import { assembleChat, type ChatControllerDeps, type ChatParts } from './chat-parts.js';
import type { ConnectedModel } from './request/model-selection.js';
import { createStore, type Store } from './state/store.js';
import { type ChatViewState, initialViewState } from './state/view-state.js';
import type { TurnOutcome } from './turn/turn-outcome.js';

/**
 * One chat: what the UI asks of it (`start`, `submit`, `retry`, `interrupt`, `answerDialog`),
 * handed to the part that does it; every part writes to one screen state, `store`.
 */
export class ChatController {
  readonly store: Store<ChatViewState>;
  private readonly parts: ChatParts;

  constructor(private readonly deps: ChatControllerDeps) {
    this.store = deps.store ?? createStore(initialViewState(deps.flags.model ?? deps.config.model));
    this.parts = assembleChat(deps, this.store);
  }

  /** What slash commands act through (the chat's parts, by capability). */
  get host(): CommandHost {
    return this.parts.host;
  }

  /**
   * Connects to the server and the model; failures are shown, and the next Enter retries.
   * `ready` (e.g. the markdown renderer loading) is awaited before any message is sent.
   * Resolves with the model connected (undefined when none could be).
   */
  async start(ready?: Promise<unknown>): Promise<ConnectedModel | undefined> {
    // In the background: a slow or broken MCP server never holds up connecting or a reply.
    void this.parts.mcp.start();
    let model: ConnectedModel | undefined;
    await this.parts.queue.enqueue(async () => {
      // Before the first request: every request carries them.
      await this.parts.instructions.load();
      const { screen } = this.parts;
      if (this.deps.resume !== undefined) {
        // Its replies go to the screen once, rendered: the renderer must be there first, or
        // they would stay raw markdown in the scrollback (live replies wait for it the same way).
        await ready;
        // Replayed under the banner, which connecting shows.
        screen.holdBack();
        // The resumed session's settings (model, num_ctx) decide what connecting opens.
        await this.parts.sessions.resume(this.deps.resume, this.deps.pickSession);
      }
      let connected: ConnectedModel | undefined;
      try {
        [connected] = await Promise.all([this.parts.sender.connect(), ready]);
      } finally {
        screen.release();
      }
      model = connected;
      // Tab completes `/model <name>` from this list; nobody types in one-shot mode.
      // In the background, outside the abort slot: Ctrl+C is for the user's own work.
      if (connected && (this.deps.interactive ?? true)) this.parts.connector.listInBackground();
    });
    return model;
  }

  /** What Tab completion of command arguments may read (synchronously, from what is known). */
  completionContext(): CompletionContext {
    return {
      models: this.parts.connector.installed,
      tools: this.deps.tools.list().map((t) => ({ name: t.tool.name, description: t.tool.description })),
      approvals: this.parts.toolRunner.approvals(),
      mcpServers: this.parts.mcp.servers().map((s) => s.name),
    };
  }

  /** Paths for Tab after `@`, inside the directories attachments may come from. */
  completeAttachmentPath(partial: string): CompletionEntry[] {
    return completeAttachmentPath(partial, {
      cwd: this.deps.cwd,
      allowedPaths: this.deps.config.tools.allowed_paths,
    });
  }

  /** Earlier inputs, oldest first, for Up/Down. */
  history(): readonly string[] {
    return this.deps.appState.inputHistory;
  }

  /**
   * The user pressed Enter on `text` (already trimmed of the trailing newline). Resolves, once it
   * has run, with what a message came to (one-shot mode's exit code); undefined for what is not one.
   */
  submit(text: string): Promise<TurnOutcome | undefined> {
    return this.parts.router.submit(text);
  }

  /** Enter on an empty prompt: retries what failed (the connection, or the last turn), else nothing. */
  retry(): void {
    this.parts.router.retry();
  }

  /** Esc on an empty prompt: takes the newest queued input back (unsent) to edit; undefined when none waits. */
  takeBackQueued(): string | undefined {
    return this.parts.router.takeBack();
  }

  /** Ctrl+C: cancels the reply, tool run or compaction in progress. Returns false when idle. */
  interrupt(): boolean {
    const dialog = this.store.get().dialog;
    if (dialog) {
      // Declines: an instruction dialog would otherwise send the letter "n" as the instruction,
      // and a pick dialog would pick nothing by that name.
      this.parts.dialogs.answer(dialog.kind === 'tool-instruction' || dialog.options ? '' : 'n');
      return true;
    }
    return this.parts.abort.cancel();
  }

  /** Resolves when every submitted message and command has been handled. */
  idle(): Promise<void> {
    return this.parts.queue.idle();
  }

  /** A key pressed while a dialog is open. */
  answerDialog(key: string): void {
    this.parts.dialogs.answer(key);
  }

  /** Ctrl+T: shows the thinking of every reply, earlier and later ones, expanded or collapsed. */
  toggleThinking(): void {
    this.store.update((s) => ({ showThinking: !s.showThinking }));
  }

  /**
   * Waits until every MCP server is ready or failed, at most `timeoutMs`: a one-shot's first
   * request should offer their tools.
   */
  mcpSettled(timeoutMs: number): Promise<void> {
    return this.parts.mcp.whenSettled(timeoutMs);
  }

  /** Ends what runs beside the chat: the MCP servers (stdio children closed, killed if they linger). */
  shutdown(): Promise<void> {
    return this.parts.mcp.shutdown();
  }

  /** Quits: cancels what runs, closes the session file, and tells the app. */
  exit(): void {
    this.parts.host.screen.exit();
  }

  /** After quitting: how to come back to the session from the shell (`ochat -r <name-or-id>`), if it was saved. */
  resumeCommand(): string | undefined {
    return this.parts.comeBack();
  }

  /** After quitting: how many lines the session could not save, and where they were kept, if any. */
  unsavedOnQuit(): string | undefined {
    return this.parts.unsavedOnQuit();
  }

  /** Every message of the conversation, oldest first (read-only). */
  get transcript(): readonly Message[] {
    return this.parts.conversation.transcript;
  }

  /** Every compaction record appended, oldest first (read-only). */
  get records(): readonly CompactionRecord[] {
    return this.parts.conversation.records;
  }
}
