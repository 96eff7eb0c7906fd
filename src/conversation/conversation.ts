import type { CompactionRecord } from './compaction-record.js';
import type { Message } from './message.js';

/** A message as appended: the conversation assigns its id, turn and time. */
export type NewMessage = Omit<Message, 'id' | 'turn' | 'at'>;

/** Told of everything appended (the session recorder writes it to disk). */
export interface ConversationListener {
  messageAppended(message: Message): void;
  recordAdded(record: CompactionRecord): void;
  /** `/retry` marked these messages replaced. */
  repliesReplaced(ids: number[]): void;
}

/**
 * One chat's history: the append-only transcript, the compaction records over it, and the turn
 * counter. Nothing is removed except by `clear()` (a new conversation).
 */
export class Conversation {
  private messages: Message[] = [];
  private compactions: CompactionRecord[] = [];
  private nextMessageId = 1;
  private turn = 0;
  private listener: ConversationListener | undefined;
  #version = 0;

  constructor(private readonly now: () => Date) {}

  /** Sets who is told of every append (one listener: the session recorder). */
  listen(listener: ConversationListener | undefined): void {
    this.listener = listener;
  }

  /** Replaces the history with a saved one (resume); ids and turns continue after it. */
  restore(messages: readonly Message[], records: readonly CompactionRecord[]): void {
    this.#version++;
    this.messages = [...messages];
    this.compactions = [...records];
    this.turn = messages.reduce((max, m) => Math.max(max, m.turn), 0);
    this.nextMessageId = messages.reduce((max, m) => Math.max(max, m.id), this.nextMessageId - 1) + 1;
  }

  /** `/uncompact`: the record before the latest is in force again (the transcript never changed). */
  dropLatestRecord(): CompactionRecord | undefined {
    this.#version++;
    return this.compactions.pop();
  }

  /**
   * Counts the changes to the transcript and the records: a value computed from them (the next
   * request's plan) is still good while this has not moved.
   */
  get version(): number {
    return this.#version;
  }

  /** Every message, oldest first. */
  get transcript(): readonly Message[] {
    return this.messages;
  }

  /** Every compaction record, oldest first. */
  get records(): readonly CompactionRecord[] {
    return this.compactions;
  }

  /** The compaction record in force, if any. */
  get latestRecord(): CompactionRecord | undefined {
    return this.compactions.at(-1);
  }

  /** A user message starts the next turn. */
  startTurn(): void {
    this.turn += 1;
  }

  /** Appends a message to the current turn. */
  append(message: NewMessage): Message {
    const full: Message = {
      ...message,
      id: this.nextMessageId++,
      turn: this.turn,
      at: this.now().toISOString(),
    };
    this.messages.push(full);
    this.#version++;
    this.listener?.messageAppended(full);
    return full;
  }

  /**
   * `/retry`: marks the replies of the newest turn (every assistant and tool message after its
   * user message) replaced, so the turn can be answered again. Returns their ids (empty when the
   * turn has none, or there is no turn yet). Nothing is removed: the history keeps them, marked.
   */
  replaceLastReplies(): number[] {
    let start = this.messages.length;
    while (start > 0 && this.messages[start - 1].role !== 'user') start--;
    if (start === 0) return [];
    const ids: number[] = [];
    for (let i = start; i < this.messages.length; i++) {
      const m = this.messages[i];
      if ((m.role === 'assistant' || m.role === 'tool') && !m.replaced) {
        this.messages[i] = { ...m, replaced: true };
        ids.push(m.id);
      }
    }
    if (ids.length) {
      this.#version++;
      this.listener?.repliesReplaced(ids);
    }
    return ids;
  }

  /** The newest user message: the one `/retry` answers again. */
  lastUserMessage(): Message | undefined {
    return this.messages.findLast((m) => m.role === 'user');
  }

  /** Appends a compaction record: from now on the model view starts at its summary. */
  addRecord(record: CompactionRecord): void {
    this.compactions.push(record);
    this.#version++;
    this.listener?.recordAdded(record);
  }

  /** Starts a new conversation (message ids keep counting). */
  clear(): void {
    this.#version++;
    this.messages = [];
    this.compactions = [];
    this.turn = 0;
  }
}
