import { abortable } from '../async/abortable.js';
import type { ReceivedToolCall } from '../conversation/message.js';

/** How a tool loop ended: the model answered, it ran out of rounds, or the user aborted. */
export type ToolLoopStop = 'answered' | 'max-steps' | 'aborted';

/** The steps of one turn, injected so the loop runs without Ollama. */
export interface ToolLoopOptions {
  /** Sends the conversation so far (with the tool results appended by `execute`) and returns the reply; `step` counts from 1. */
  requestReply: (step: number) => Promise<{ toolCalls: ReceivedToolCall[] }>;
  /** Runs one call and records its result; should honour the same abort signal. */
  execute: (call: ReceivedToolCall) => Promise<void>;
  /** Most model replies in one turn. */
  maxSteps: number;
  signal?: AbortSignal;
}

/**
 * Drives one turn: asks the model, runs every tool call of its reply in order, asks again, until a
 * reply without tool calls or `maxSteps` replies. The calls of the last allowed reply are still run
 * so every call has a result; the caller decides what to do at 'max-steps'.
 *
 * On abort: a pending `requestReply` is abandoned at once (Ollama may not honour an abort while a
 * model loads; its later result or rejection is ignored), a running `execute` is awaited (tools honour
 * the signal and their result belongs in the transcript), and the remaining calls are not run.
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<{ stop: ToolLoopStop; steps: number }> {
  const { signal } = options;
  let steps = 0;
  for (;;) {
    if (signal?.aborted) return { stop: 'aborted', steps };
    if (steps >= options.maxSteps) return { stop: 'max-steps', steps };
    steps++;
    let reply: { toolCalls: ReceivedToolCall[] };
    try {
      reply = await abortable(options.requestReply(steps), signal);
    } catch (error) {
      // Abandoned at the abort: its later result or rejection is ignored.
      if (signal?.aborted) return { stop: 'aborted', steps };
      throw error;
    }
    if (signal?.aborted) return { stop: 'aborted', steps };
    if (reply.toolCalls.length === 0) return { stop: 'answered', steps };
    for (const call of reply.toolCalls) {
      if (signal?.aborted) return { stop: 'aborted', steps };
      await options.execute(call);
    }
  }
}
