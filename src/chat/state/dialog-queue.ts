import type { Store } from './store.js';
import type { ChatViewState, Dialog } from './view-state.js';

/** Opens a dialog and resolves with the key (or text) that answers it. */
export type AskDialog = (dialog: Dialog) => Promise<string>;

/** The one open dialog: shown through the store, answered by the next key (or Enter). */
export class DialogQueue {
  private resolveAnswer: ((key: string) => void) | undefined;

  constructor(
    private readonly store: Store<ChatViewState>,
    /** False in one-shot mode: nobody can answer, so every question is declined with 'n'. */
    private readonly interactive: boolean,
  ) {}

  /** Opens `dialog` and resolves with the key (or text) that answers it. */
  ask(dialog: Dialog): Promise<string> {
    if (!this.interactive) return Promise.resolve('n');
    this.store.update({ dialog });
    return new Promise((resolve) => {
      this.resolveAnswer = resolve;
    });
  }

  /** Answers the open dialog, if any, and closes it. */
  answer(key: string): void {
    const resolve = this.resolveAnswer;
    if (!resolve) return;
    this.resolveAnswer = undefined;
    this.store.update({ dialog: undefined });
    resolve(key);
  }
}
