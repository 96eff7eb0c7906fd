/** The summarizer's reply: its text, and whether the server cut it off at `numPredict`. */
export interface SummarizerReply {
  text: string;
  /** The server stopped generating at `numPredict` (`done_reason: "length"`): the reply's end is missing. */
  cutOff: boolean;
}

/**
 * The injected summarizer call: one non-streaming chat request with `system` and `prompt`,
 * `num_predict` = `numPredict`, resolving to the model's reply. The only I/O compaction does.
 */
export type Ask = (request: {
  system: string;
  prompt: string;
  numPredict: number;
  signal?: AbortSignal;
}) => Promise<SummarizerReply>;
