import { Conversation } from '../conversation/conversation.js';
import { AbortSlot } from './abort-slot.js';
import type { ChatControllerDeps } from './chat-controller.js';
import { CompactionRunner } from './compaction-runner.js';
import { type AskDialog, DialogQueue } from './dialog-queue.js';
import { ModelConnector } from './model-connector.js';
import { ModelContext } from './model-context.js';
import { ScreenLog } from './screen-log.js';
import { ChatSessions } from './session-commands.js';
import { SessionKeeper } from './session-keeper.js';
import type { Store } from './store.js';
import { ToolRunner } from './tool-runner.js';
import { TurnRunner } from './turn-runner.js';
import type { ChatViewState } from './view-state.js';
import { WorkQueue } from './work-queue.js';

/** The parts of one chat, each owning one concern, wired to each other and to one screen state. */
export interface ChatParts {
  screen: ScreenLog;
  conversation: Conversation;
  model: ModelContext;
  dialogs: DialogQueue;
  /** The reply, tool run or compaction that Ctrl+C cancels. */
  abort: AbortSlot;
  queue: WorkQueue;
  compactions: CompactionRunner;
  connector: ModelConnector;
  toolRunner: ToolRunner;
  turns: TurnRunner;
  /** The session file: what is appended is recorded there. */
  keeper: SessionKeeper;
  sessions: ChatSessions;
}

/** Builds and wires the parts of a chat from the controller's dependencies. */
export function assembleChat(deps: ChatControllerDeps, store: Store<ChatViewState>): ChatParts {
  const { backend, config, appState } = deps;
  const now = deps.now ?? (() => new Date());
  const interactive = deps.interactive ?? true;
  const screen = new ScreenLog(store);
  const conversation = new Conversation(now);
  const model = new ModelContext(config, conversation, deps.tools, store);
  const keeper = new SessionKeeper({
    store: deps.sessions,
    cwd: deps.cwd,
    now,
    conversation,
    model,
    onError: (error) => screen.notice('warning', `The session cannot be saved: ${error.message}`),
  });
  const dialogs = new DialogQueue(store, interactive);
  const abort = new AbortSlot();
  const queue = new WorkQueue((queued) => store.update({ queued }));
  const ask: AskDialog = (dialog) => dialogs.ask(dialog);
  const compactions = new CompactionRunner({
    backend,
    config: config.compaction,
    conversation,
    model,
    screen,
    ask,
    abort,
    interactive,
    now,
    onFailure: (trigger, reason, summarizer) => keeper.compactionFailed(trigger, reason, summarizer),
  });
  const connector = new ModelConnector({
    backend,
    config,
    appState,
    flags: deps.flags,
    model,
    screen,
    compaction: compactions,
    abort,
    interactive,
  });
  const toolRunner = new ToolRunner({
    tools: deps.tools,
    config: config.tools,
    cwd: deps.cwd,
    conversation,
    screen,
    ask,
    autoConfirm: deps.autoConfirm,
    now,
  });
  const turns = new TurnRunner({
    backend,
    appState,
    config: config.tools,
    conversation,
    model,
    screen,
    tools: toolRunner,
    compaction: compactions,
    abort,
    onReplyDelta: deps.onReplyDelta,
    interactive,
  });
  const sessions = new ChatSessions({
    keeper,
    conversation,
    model,
    connector,
    compactions,
    tools: deps.tools,
    screen,
    ask,
    resetChat: () => {
      conversation.clear();
      turns.forgetFailure();
      compactions.reset();
      toolRunner.reset();
      model.resetMeter();
    },
  });
  return {
    screen,
    conversation,
    model,
    dialogs,
    abort,
    queue,
    compactions,
    connector,
    toolRunner,
    turns,
    keeper,
    sessions,
  };
}
