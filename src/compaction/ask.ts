/**
 * The injected summarizer call: one non-streaming chat request with `system` and `prompt`,
 * `num_predict` = `numPredict`, resolving to the model's reply text. The only I/O compaction does.
 */
export type Ask = (request: {
  system: string;
  prompt: string;
  numPredict: number;
  signal?: AbortSignal;
}) => Promise<string>;
