import type { ChatBackend } from '../backend/chat-backend.js';
import type { ChatDelta } from '../backend/interfaces.js';
import type { SlashCommand } from '../commands/command.js';
import type { CommandHost, ScreenCommands } from '../commands/command-host.js';
import type { AppState } from '../config/app-state.js';
import type { Config } from '../config/schema.js';
import { Conversation } from '../conversation/conversation.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { ToolRegistry } from '../tools/registry.js';
import { CompactionRunner } from './compaction/compaction-runner.js';
import { InputRouter } from './input/input-router.js';
import { MessageSender } from './input/message-sender.js';
import { ChatOptions } from './input/option-commands.js';
import { ShellRunner } from './input/shell-runner.js';
import { assembleModelParts, type ModelParts } from './model/model-parts.js';
import { assembleRequestParts, type RequestParts } from './request/request-parts.js';
import { ChatSessions } from './session/chat-sessions.js';
import type { SessionKeeper } from './session/session-keeper.js';
import { createSessionKeeper } from './session/session-parts.js';
import { assembleStateParts, type StateParts } from './state/state-parts.js';
import type { Store } from './state/store.js';
import type { ChatViewState } from './state/view-state.js';
import { assembleToolParts, type ToolParts } from './tools/tool-parts.js';
import { TurnRunner } from './turn/turn-runner.js';

/** What the controller needs from the outside world; tests pass a fake backend or the Ollama one over the emulator. */
export interface ChatControllerDeps {
  backend: ChatBackend;
  config: Config;
  appState: AppState;
  tools: ToolRegistry;
  /** The slash commands the user may type. */
  commands: readonly SlashCommand[];
  cwd: string;
  /** `-m` and `--num-ctx` from the command line. */
  flags: { model?: string; numCtx?: number };
  /** The screen state to write to (the app may render it before the controller exists). */
  store?: Store<ChatViewState>;
  /** Called once when the user quits. */
  onExit: () => void;
  /** Sees every streamed chunk (one-shot mode prints them as they come). */
  onReplyDelta?: (delta: ChatDelta) => void;
  /** Answers tool confirmations without asking (one-shot mode: approve with --yes, else run none that needs one). */
  autoConfirm?: 'yes' | 'no';
  /**
   * False in one-shot mode: nobody can answer a dialog or press Enter to retry, so a failed
   * compaction is an error instead of a question.
   */
  interactive?: boolean;
  now?: () => Date;
  /** Columns a command's output may fill (the terminal's width less the notice marker); 80 when absent. */
  columns?: () => number;
  /** Where sessions are saved; undefined: nothing is saved (one-shot mode, most tests). */
  sessions?: SessionStore;
  /** The environment MCP servers' `${VAR}` references are filled from; `process.env` when absent. */
  env?: Readonly<Record<string, string | undefined>>;
  /** `--resume`: the session to continue (id, id prefix or name; `true`: this directory's newest). */
  resume?: string | true;
  /** Puts text on the clipboard through the terminal (OSC 52); absent where there is none to ask. */
  copyToClipboard?: (text: string) => void;
  /** `-r` alone on a terminal: the user picks which of this directory's sessions (`--continue`: the newest). */
  pickSession?: boolean;
}

/** The parts of one chat, each owning one concern, wired to each other and to one screen state. */
export interface ChatParts extends StateParts, RequestParts, ModelParts, ToolParts {
  conversation: Conversation;
  compactions: CompactionRunner;
  turns: TurnRunner;
  /** `!command`: runs what the user typed and keeps its output in the conversation. */
  shell: ShellRunner;
  /** The session file: what is appended is recorded there. */
  keeper: SessionKeeper;
  sessions: ChatSessions;
  sender: MessageSender;
  /** What slash commands act through, part by part. */
  host: CommandHost;
  router: InputRouter;
  /** After quitting: how to continue the session that was closed (`ochat -r <name-or-id>`). */
  comeBack: () => string | undefined;
  /** After quitting: the lines the session could not save, and where they were kept (a full disk). */
  unsavedOnQuit: () => string | undefined;
}

/** Builds and wires the parts of a chat from the controller's dependencies. */
export function assembleChat(deps: ChatControllerDeps, store: Store<ChatViewState>): ChatParts {
  const { backend, config, appState } = deps;
  const now = deps.now ?? (() => new Date());
  const interactive = deps.interactive ?? true;
  const env = deps.env ?? process.env;
  const conversation = new Conversation(now);
  const state = assembleStateParts(store, interactive);
  const { screen, dialogs, abort, queue, ask } = state;
  const { settings, requests, instructions } = assembleRequestParts({
    config,
    tools: deps.tools,
    cwd: deps.cwd,
    env,
    conversation,
    store,
    screen,
  });
  const keeper = createSessionKeeper({
    sessions: deps.sessions,
    backend,
    cwd: deps.cwd,
    now,
    conversation,
    settings,
    requests,
    screen,
  });
  const compactions = new CompactionRunner({
    backend,
    config: config.compaction,
    conversation,
    settings,
    requests,
    screen,
    ask,
    abort,
    interactive,
    now,
    onFailure: (failure) => keeper.compactionFailed(failure),
    onPausedChange: (paused) => keeper.recordSetting('auto_compaction_paused', paused),
  });
  const { local, connector } = assembleModelParts({
    backend,
    config,
    appState,
    flags: deps.flags,
    settings,
    requests,
    conversation,
    screen,
    compaction: compactions,
    abort,
    interactive,
    instructions,
    ask,
  });
  const { mcp, toolRunner } = assembleToolParts({
    config,
    tools: deps.tools,
    cwd: deps.cwd,
    env,
    appState,
    conversation,
    settings,
    requests,
    state,
    interactive,
    makeRoom: () => compactions.makeRoom(),
    autoConfirm: deps.autoConfirm,
    now,
    onToolStarted: (started) => keeper.recordSetting('tool_started', started),
  });
  const turns = new TurnRunner({
    backend,
    appState,
    config: config.tools,
    conversation,
    settings,
    requests,
    screen,
    tools: toolRunner,
    compaction: compactions,
    abort,
    load: local,
    onReplyDelta: deps.onReplyDelta,
    interactive,
    learnWindow: (tokens) => connector.learnWindow(tokens),
  });
  const shell = new ShellRunner({
    conversation,
    screen,
    abort,
    cwd: deps.cwd,
    config: config.tools,
    onAppended: () => requests.refreshUsed(),
  });
  /** Forgets the running chat's state (retry, tool output, paused compaction). */
  const resetChat = () => {
    conversation.clear();
    requests.restoreShortened();
    turns.forgetFailure();
    compactions.reset();
    toolRunner.reset();
  };
  const sessions = new ChatSessions({
    keeper,
    conversation,
    settings,
    requests,
    connector,
    compactions,
    tools: deps.tools,
    screen,
    ask,
    // The meter is not reset here: the resumed session's saved state is put back instead.
    resetChat,
  });
  const sender = new MessageSender({
    config,
    cwd: deps.cwd,
    conversation,
    settings,
    requests,
    connector,
    compactions,
    turns,
    screen,
    ask,
    interactive,
    startNewConversation: () => {
      // First: what follows belongs to the new session, not to the one just closed.
      keeper.startNew();
      resetChat();
      requests.resetMeter();
      requests.toolRecency.restore({ used: [], found: [] });
      // The last reply's speed belongs to the conversation that is gone.
      store.update({ used: 0, lastStats: undefined });
    },
  });
  let comeBack: string | undefined;
  let unsavedOnQuit: string | undefined;
  const screenCommands: ScreenCommands = {
    notice: (level, text) => screen.notice(level, text),
    show: (text) => screen.notice('info', text),
    get columns() {
      return deps.columns?.() ?? 80;
    },
    get lastReply() {
      return conversation.transcript.findLast((m) => m.role === 'assistant' && m.content !== '')?.content;
    },
    copy: (text) => {
      if (!deps.copyToClipboard) return false;
      deps.copyToClipboard(text);
      return true;
    },
    exit: () => {
      abort.cancel();
      // Read before the session file closes: the quit line says how to come back to it.
      comeBack = sessions.resumeCommand();
      unsavedOnQuit = keeper.close();
      store.update({ exiting: true });
      deps.onExit();
    },
  };
  const host: CommandHost = {
    screen: screenCommands,
    conversation: sender,
    model: connector,
    options: new ChatOptions(settings, connector),
    tools: toolRunner,
    compaction: compactions,
    sessions,
  };
  const router = new InputRouter({
    store,
    commands: deps.commands,
    host,
    appState,
    cwd: deps.cwd,
    screen,
    dialogs,
    queue,
    sender,
    shell,
    interactive,
  });
  return {
    mcp,
    local,
    ask,
    screen,
    conversation,
    settings,
    instructions,
    requests,
    dialogs,
    abort,
    queue,
    compactions,
    connector,
    toolRunner,
    turns,
    shell,
    keeper,
    sessions,
    sender,
    host,
    router,
    comeBack: () => comeBack,
    unsavedOnQuit: () => unsavedOnQuit,
  };
}
