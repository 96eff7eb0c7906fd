import type { NoticeLevel } from '../../commands/command-host.js';
import type { DisplayItem } from './display-items.js';
import type { Store } from './store.js';
import type { ChatViewState } from './view-state.js';

/** Appends to the finished conversation on screen: items, notices, and the ids they need. */
export class ScreenLog {
  private nextItemId = 1;
  private errors = 0;

  constructor(
    /** The screen state the items are written to. */
    readonly store: Store<ChatViewState>,
  ) {}

  /** Items held back by {@link holdBack} until {@link release}. */
  private held: DisplayItem[] | undefined;

  /** Appends one finished item (held back, but for the banner, while {@link holdBack} holds). */
  push(item: DisplayItem): void {
    if (this.held && item.kind !== 'banner') {
      this.held.push(item);
      return;
    }
    this.store.update((s) => ({ items: [...s.items, item] }));
  }

  /**
   * Holds back what is pushed from now on until {@link release}, the banner excepted: a session
   * resumed at the start is replayed before its model connects, and the banner comes first.
   */
  holdBack(): void {
    this.held ??= [];
  }

  /** Appends what was held back, in order, and stops holding. */
  release(): void {
    const held = this.held;
    this.held = undefined;
    if (held?.length) this.store.update((s) => ({ items: [...s.items, ...held] }));
  }

  /** Appends a notice (`hang`: continuation rows indented that much more, as `/history` lists). */
  notice(level: NoticeLevel, text: string, hang?: number): void {
    if (level === 'error') this.errors++;
    this.push({ kind: 'notice', id: this.itemId(), level, text, ...(hang && { hang }) });
  }

  /** How many error notices were said so far: a command that said one failed, whatever path said it. */
  get errorsSaid(): number {
    return this.errors;
  }

  /** A fresh id for a display item. */
  itemId(): string {
    return `i${this.nextItemId++}`;
  }
}
