import type { ChatDelta, ChatReply, ReceivedToolCall } from '../backend/interfaces.js';
import type { PartialReply } from './errors.js';
import { readToolCalls } from './tool-calls.js';

/** One streamed /api/chat line as the server sends it (counts and durations only on the last). */
export interface ChatChunk {
  model?: string;
  message?: {
    role?: string;
    content?: string;
    thinking?: string;
    /** Untrusted: read with `readToolCalls`. */
    tool_calls?: unknown;
  };
  done: boolean;
  done_reason?: string;
  total_duration?: number;
  load_duration?: number;
  prompt_eval_count?: number;
  prompt_eval_duration?: number;
  eval_count?: number;
  eval_duration?: number;
}

/**
 * The most of one reply (content and thinking) kept in memory and in the session: a model that
 * loops, or a server that streams without end (a 2 GB reply took 3.6 GB), is stopped there.
 */
export const MAX_REPLY_CHARS = 4 * 1024 * 1024;

/** Builds a `ChatReply` from streamed chunks, reporting what each chunk added. */
export class ReplyAccumulator {
  private content = '';
  private thinking = '';
  private readonly toolCalls: ReceivedToolCall[] = [];
  /** The reply reached `maxChars`: what came after was discarded. */
  capped = false;

  constructor(readonly maxChars = MAX_REPLY_CHARS) {}

  /** As much of `piece` as fits under the cap (all of it while there is room). */
  private fit(piece: string): string {
    const room = this.maxChars - this.content.length - this.thinking.length;
    if (piece.length <= room) return piece;
    this.capped = true;
    return piece.slice(0, Math.max(0, room));
  }

  /** Adds one chunk; returns what it contributed, or undefined if it carried nothing new. */
  add(chunk: ChatChunk): ChatDelta | undefined {
    const message = chunk.message;
    if (!message) return undefined;
    const delta: ChatDelta = {};
    const thinking = typeof message.thinking === 'string' ? this.fit(message.thinking) : '';
    if (thinking) {
      this.thinking += thinking;
      delta.thinking = thinking;
    }
    const content = typeof message.content === 'string' ? this.fit(message.content) : '';
    if (content) {
      this.content += content;
      delta.content = content;
    }
    const toolCalls = readToolCalls(message.tool_calls);
    if (toolCalls.length > 0) {
      this.toolCalls.push(...toolCalls);
      delta.toolCalls = toolCalls;
    }
    return Object.keys(delta).length > 0 ? delta : undefined;
  }

  /** The text so far, for an error that interrupts the stream. */
  partial(): PartialReply {
    return { content: this.content, thinking: this.thinking };
  }

  /** The whole reply, with metrics from the final (`done`) chunk and how many lines were skipped. */
  finish(done: ChatChunk, skippedLines = 0): ChatReply {
    return {
      ...(skippedLines > 0 ? { skippedLines } : {}),
      content: this.content,
      thinking: this.thinking,
      toolCalls: [...this.toolCalls],
      doneReason: done.done_reason ?? '',
      metrics: {
        promptEvalCount: done.prompt_eval_count ?? 0,
        evalCount: done.eval_count ?? 0,
        totalDurationNs: done.total_duration ?? 0,
        loadDurationNs: done.load_duration ?? 0,
        promptEvalDurationNs: done.prompt_eval_duration ?? 0,
        evalDurationNs: done.eval_duration ?? 0,
      },
    };
  }
}
