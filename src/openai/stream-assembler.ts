import type { PartialReply } from '../backend/errors.js';
import type { ChatDelta, ChatReply } from '../backend/interfaces.js';
import { ReplyAccumulator } from '../ollama/reply-accumulator.js';
import { isRecord } from './engines.js';

/** A tool call being put together from its streamed pieces. */
interface CallInProgress {
  index?: number;
  id?: string;
  name: string;
  arguments: string;
}

/** The server's counts and times of one reply, as far as it sent them. */
interface Counts {
  promptTokens?: number;
  completionTokens?: number;
  /** llama-server's `timings`: milliseconds spent on the prompt and on the reply. */
  promptMs?: number;
  predictedMs?: number;
}

/**
 * Builds one `ChatReply` from streamed chat-completion chunks. Text and reasoning are passed on as
 * they come (`reasoning` from vLLM, `reasoning_content` from llama-server, SGLang and LM Studio);
 * tool calls are put together from `delta.tool_calls` pieces — by `index`, and by `id` for the
 * servers that send every call with index 0 — and handed on whole at the end, their `arguments`
 * a JSON string read as an object. The reply size cap and the reading of odd calls are the Ollama
 * client's own (ReplyAccumulator, readToolCalls).
 */
export class StreamAssembler {
  private readonly reply = new ReplyAccumulator();
  private readonly calls: CallInProgress[] = [];
  private finishReason = '';
  private readonly counts: Counts = {};
  private readonly startedAt: number;
  private firstTokenAt: number | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.startedAt = now();
  }

  get capped(): boolean {
    return this.reply.capped;
  }

  get maxChars(): number {
    return this.reply.maxChars;
  }

  /** Adds one chunk; returns the text and reasoning it added, if any. */
  add(chunk: Record<string, unknown>): ChatDelta | undefined {
    this.readCounts(chunk);
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) return undefined;
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};
    if (Array.isArray(delta.tool_calls)) for (const piece of delta.tool_calls) this.addCallPiece(piece);
    const thinking = textOf(delta.reasoning) || textOf(delta.reasoning_content);
    const content = textOf(delta.content);
    if (!thinking && !content) return undefined;
    this.firstTokenAt ??= this.now();
    return this.reply.add({ done: false, message: { content, thinking } });
  }

  /** What streamed so far, for an error that ends the stream. */
  partial(): PartialReply {
    return this.reply.partial();
  }

  /** The calls put together, whole (as one delta), or undefined when the reply made none. */
  takeToolCalls(): ChatDelta | undefined {
    if (this.calls.length === 0) return undefined;
    const raw = this.calls.splice(0).map((call) => ({
      ...(call.id ? { id: call.id } : {}),
      function: { name: call.name, arguments: call.arguments, index: call.index },
    }));
    return this.reply.add({ done: false, message: { tool_calls: raw } });
  }

  /** Whether the server sent its token counts (`usage`, with `stream_options.include_usage`). */
  get counted(): boolean {
    return this.counts.promptTokens !== undefined;
  }

  /** The whole reply with the server's counts (0 where it sent none) and times. */
  finish(): ChatReply {
    const end = this.now();
    const firstToken = this.firstTokenAt ?? end;
    const ms = (value: number | undefined, measured: number) => Math.round((value ?? measured) * 1e6);
    const reply = this.reply.finish({
      done: true,
      done_reason: this.finishReason,
      prompt_eval_count: this.counts.promptTokens ?? 0,
      eval_count: this.counts.completionTokens ?? 0,
      total_duration: ms(undefined, end - this.startedAt),
      prompt_eval_duration: ms(this.counts.promptMs, firstToken - this.startedAt),
      eval_duration: ms(this.counts.predictedMs, end - firstToken),
    });
    if (!this.counted) reply.metrics.counted = false;
    else reply.metrics.wholePrompt = true;
    return reply;
  }

  private readCounts(chunk: Record<string, unknown>): void {
    const usage = chunk.usage;
    if (isRecord(usage)) {
      if (typeof usage.prompt_tokens === 'number') this.counts.promptTokens = usage.prompt_tokens;
      if (typeof usage.completion_tokens === 'number') this.counts.completionTokens = usage.completion_tokens;
    }
    const timings = chunk.timings;
    if (isRecord(timings)) {
      if (typeof timings.prompt_ms === 'number') this.counts.promptMs = timings.prompt_ms;
      if (typeof timings.predicted_ms === 'number') this.counts.predictedMs = timings.predicted_ms;
    }
  }

  /** One `delta.tool_calls[]` piece: a new call (a new id, or a new index) or more of one. */
  private addCallPiece(piece: unknown): void {
    if (!isRecord(piece)) return;
    const fn = isRecord(piece.function) ? piece.function : {};
    const id = typeof piece.id === 'string' && piece.id !== '' ? piece.id : undefined;
    const index = typeof piece.index === 'number' ? piece.index : undefined;
    let call = id
      ? this.calls.find((c) => c.id === id)
      : index === undefined
        ? this.calls.at(-1)
        : this.calls.findLast((c) => c.index === index);
    // A piece with an id not seen yet starts a call, though its index may repeat (all 0).
    if (!call) {
      call = { index, id, name: '', arguments: '' };
      this.calls.push(call);
    }
    if (typeof fn.name === 'string') call.name += fn.name;
    if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
    // A server that sends the arguments as an object rather than a JSON string.
    else if (isRecord(fn.arguments)) call.arguments = JSON.stringify(fn.arguments);
  }
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
