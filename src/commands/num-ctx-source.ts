import type { ModelInfo } from '../backend/interfaces.js';

/** Where each `numCtxSource` value comes from, in words. */
const NUM_CTX_SOURCES: Record<string, string> = {
  flag: '--num-ctx',
  config: 'config',
  modelfile: 'Modelfile',
  default: "ochat's default",
  '/set': '/set',
  refusal: "the server's refusal of a longer prompt",
};

/** The same in a word or two, for the status line. */
const NUM_CTX_LABELS: Record<string, string> = {
  flag: '--num-ctx',
  config: 'config',
  modelfile: 'Modelfile',
  default: 'default',
  '/set': '/set',
  refusal: 'learnt from refusal',
};

/**
 * Where the window in force comes from, for the status line: `/props`, `max_model_len`,
 * `--num-ctx`, `learnt from refusal`, `guessed` (a server that says nothing).
 */
export function numCtxSourceLabel(source: string | undefined, info: ModelInfo | undefined): string {
  if (source === 'server') return info?.serverWindow?.label ?? 'server';
  return NUM_CTX_LABELS[source ?? ''] ?? source ?? '';
}

/**
 * Where the window in force comes from, for `/set` and `/context`: `--num-ctx`, `Modelfile`, or
 * for an OpenAI-compatible server what it published (`llama-server /props n_ctx`).
 */
export function describeNumCtxSource(source: string | undefined, info: ModelInfo | undefined): string {
  if (source === 'server') return info?.serverWindow?.source ?? 'the server';
  return NUM_CTX_SOURCES[source ?? ''] ?? source ?? '';
}
