import type { ChatDelta, ChatReply, ToolCall } from '../backend/interfaces.js';
import type { PartialReply } from './errors.js';

/** One streamed /api/chat line as the server sends it (counts and durations only on the last). */
export interface ChatChunk {
  model?: string;
  message?: {
    role?: string;
    content?: string;
    thinking?: string;
    tool_calls?: ToolCall[];
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

/** Builds a `ChatReply` from streamed chunks, reporting what each chunk added. */
export class ReplyAccumulator {
  private content = '';
  private thinking = '';
  private readonly toolCalls: ToolCall[] = [];

  /** Adds one chunk; returns what it contributed, or undefined if it carried nothing new. */
  add(chunk: ChatChunk): ChatDelta | undefined {
    const message = chunk.message;
    if (!message) return undefined;
    const delta: ChatDelta = {};
    if (message.content) {
      this.content += message.content;
      delta.content = message.content;
    }
    if (message.thinking) {
      this.thinking += message.thinking;
      delta.thinking = message.thinking;
    }
    if (message.tool_calls && message.tool_calls.length > 0) {
      this.toolCalls.push(...message.tool_calls);
      delta.toolCalls = message.tool_calls;
    }
    return Object.keys(delta).length > 0 ? delta : undefined;
  }

  /** The text so far, for an error that interrupts the stream. */
  partial(): PartialReply {
    return { content: this.content, thinking: this.thinking };
  }

  /** The whole reply, with metrics from the final (`done`) chunk. */
  finish(done: ChatChunk): ChatReply {
    return {
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
