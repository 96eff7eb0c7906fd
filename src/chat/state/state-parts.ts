import { AbortSlot } from './abort-slot.js';
import { type AskDialog, DialogQueue } from './dialog-queue.js';
import { ScreenLog } from './screen-log.js';
import type { Store } from './store.js';
import type { ChatViewState } from './view-state.js';
import { WorkQueue } from './work-queue.js';

/** What every other room writes to the screen through: the log, the dialogs, Ctrl+C's slot, the queue of typed-ahead work. */
export interface StateParts {
  screen: ScreenLog;
  dialogs: DialogQueue;
  /** `dialogs.ask`, as the parts that only ask take it. */
  ask: AskDialog;
  /** The reply, tool run or compaction that Ctrl+C cancels. */
  abort: AbortSlot;
  queue: WorkQueue;
}

/** The state room's parts over one screen state. */
export function assembleStateParts(store: Store<ChatViewState>, interactive: boolean): StateParts {
  const dialogs = new DialogQueue(store, interactive);
  return {
    screen: new ScreenLog(store),
    dialogs,
    ask: (dialog) => dialogs.ask(dialog),
    abort: new AbortSlot(),
    queue: new WorkQueue((queued) => store.update({ queued })),
  };
}
