/** The Ollama option table alone, without its validators (zod), so Tab completion can read it at no start-up cost. */

/** How an Ollama option's value is typed on the wire. */
export type OllamaOptionType = 'int' | 'float' | 'bool' | 'string[]';

/** One Ollama model option: its type, its valid range (inclusive) and what it does. */
export interface OllamaOptionSpec {
  type: OllamaOptionType;
  min?: number;
  max?: number;
  /** One line for `/set` listings and config docs. */
  description: string;
}

/**
 * The model options current Ollama servers accept in a request's `options` (api/types.go
 * `Options` + `Runner`). The npm client's `Options` type still lists options the server has
 * dropped (mirostat*, tfs_z, penalize_newline, numa, low_vram, f16_kv, …); they are left out.
 */
export const OLLAMA_OPTIONS = {
  num_ctx: { type: 'int', min: 1, description: 'context window in tokens; compaction budgets follow it' },
  num_predict: {
    type: 'int',
    min: -2,
    description: 'most tokens per reply (-1 unlimited, -2 fill the context)',
  },
  num_keep: { type: 'int', min: -1, description: 'prompt tokens kept when the context shifts (-1 all)' },
  seed: { type: 'int', description: 'random seed: same seed and prompt, same reply' },
  temperature: {
    type: 'float',
    min: 0,
    description: 'sampling randomness: higher is more varied, 0 near-deterministic',
  },
  top_k: { type: 'int', min: 0, description: 'sample only from the k likeliest tokens (0 disables)' },
  top_p: {
    type: 'float',
    min: 0,
    max: 1,
    description: 'sample from the likeliest tokens whose probabilities sum to p',
  },
  min_p: {
    type: 'float',
    min: 0,
    max: 1,
    description: 'drop tokens less likely than p times the likeliest one',
  },
  typical_p: { type: 'float', min: 0, max: 1, description: 'locally typical sampling (1 disables)' },
  repeat_last_n: {
    type: 'int',
    min: -1,
    description: 'tokens looked back to penalize repeats (0 off, -1 num_ctx)',
  },
  repeat_penalty: {
    type: 'float',
    min: 0,
    description: 'penalty on repeated tokens (1 none, higher repeats less)',
  },
  presence_penalty: { type: 'float', description: 'penalty on any token already in the output' },
  frequency_penalty: {
    type: 'float',
    description: 'penalty growing with how often a token already appeared',
  },
  stop: { type: 'string[]', description: 'sequences that end the reply when generated' },
  num_batch: { type: 'int', min: 1, description: 'prompt tokens processed per batch' },
  num_gpu: { type: 'int', min: -1, description: 'layers offloaded to the GPU (-1 automatic, 0 CPU only)' },
  main_gpu: { type: 'int', min: 0, description: 'GPU for small tensors when there are several' },
  num_thread: { type: 'int', min: 0, description: 'CPU threads for generation (0 automatic)' },
  use_mmap: { type: 'bool', description: 'memory-map the model file instead of reading it into RAM' },
} as const satisfies Record<string, OllamaOptionSpec>;
