import type { ChatDelta } from '../../backend/interfaces.js';
import { sanitizeTerminalText } from '../../text/sanitize.js';
import { splitCommittable } from '../../text/split-committable.js';
import type { DisplayItem } from '../state/display-items.js';
import type { LiveReply } from '../state/view-state.js';

/** More of the streaming tail than any screen shows. */
const LIVE_TAIL_CHARS = 256 * 1024;

/** What the presenter hands the screen: blocks that are final, and the part still streaming. */
export interface PresenterOutput {
  commit: DisplayItem[];
  live: LiveReply | undefined;
}

/**
 * Turns a streamed reply into screen updates: finished markdown blocks (ending at a blank line
 * outside a code fence) are committed once to the static conversation; only the tail stays live.
 * Updates are batched to one per `intervalMs`, so rendering cost does not grow with token rate.
 */
export class ReplyPresenter {
  private raw = '';
  private committed = 0;
  private thinking = '';
  private thinkingCommitted = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (output: PresenterOutput) => void,
    private readonly newId: () => string,
    private readonly intervalMs = 80,
  ) {}

  /** Takes one streamed chunk; renders at the next tick at the latest. */
  push(delta: ChatDelta): void {
    if (delta.thinking) this.thinking += delta.thinking;
    if (delta.content) this.raw += delta.content;
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Commits everything left; `interrupted` marks a reply cut short. */
  finish(options: { interrupted?: boolean } = {}): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const commit = this.takeThinking();
    const rest = sanitizeTerminalText(this.raw.slice(this.committed)).replace(/\s+$/, '');
    this.committed = this.raw.length;
    if (rest || options.interrupted) {
      commit.push({ kind: 'assistant', id: this.newId(), markdown: rest, interrupted: options.interrupted });
    }
    this.emit({ commit, live: undefined });
  }

  private flush(): void {
    this.timer = undefined;
    const commit: DisplayItem[] = [];
    if (this.raw.length > 0) commit.push(...this.takeThinking());
    const { committed, pending } = splitCommittable(this.raw.slice(this.committed));
    if (committed.trim()) {
      commit.push({
        kind: 'assistant',
        id: this.newId(),
        markdown: sanitizeTerminalText(committed).trimEnd(),
      });
    }
    this.committed += committed.length;
    const thinking = this.thinkingCommitted ? '' : sanitizeTerminalText(this.thinking);
    // The live area shows the last rows only: a huge pending paragraph is not sanitised whole
    // every frame.
    const shownPending = pending.length > LIVE_TAIL_CHARS ? pending.slice(-LIVE_TAIL_CHARS) : pending;
    this.emit({ commit, live: { text: sanitizeTerminalText(shownPending), thinking } });
  }

  /** Thinking is committed once, as soon as the answer starts (or at the end). */
  private takeThinking(): DisplayItem[] {
    if (this.thinkingCommitted || !this.thinking.trim()) return [];
    this.thinkingCommitted = true;
    return [
      {
        kind: 'thinking',
        id: this.newId(),
        text: sanitizeTerminalText(this.thinking).trim(),
      },
    ];
  }
}
