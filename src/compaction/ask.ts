import type { WireMessage } from '../conversation/message.js';

/** The summarizer's reply: its text, and whether the server cut it off at `numPredict`. */
export interface SummarizerReply {
  text: string;
  /** The server stopped generating at `numPredict` (`done_reason: "length"`): the reply's end is missing. */
  cutOff: boolean;
  /** The model answered with tool calls instead of a summary (possible where no `tool_choice` stops it). */
  calledTools?: boolean;
}

/**
 * The injected summarizer call: one non-streaming chat request with `system` and `prompt`,
 * `num_predict` = `numPredict`, resolving to the model's reply. The only I/O compaction does.
 * With `continues`, the request is the chat's own instead, continued: those messages (its system
 * message and the slice as they were sent, with the chat's tools and options), then `prompt` as
 * one user message; `system` is not sent. The server then reuses the KV cache of the chat's last
 * request for all of it but the prompt.
 */
export type Ask = (request: {
  system: string;
  prompt: string;
  numPredict: number;
  signal?: AbortSignal;
  continues?: readonly WireMessage[];
}) => Promise<SummarizerReply>;
