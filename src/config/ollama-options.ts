import * as z from 'zod/mini';
import { describeValue, mustBe } from './describe-value.js';
import { preprocess } from './preprocess.js';
import { suggest } from './suggest.js';

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

/** The name of a known Ollama option. */
export type OllamaOptionName = keyof typeof OLLAMA_OPTIONS;

/** Option names in table order, for `/set` completion and listings. */
export const OLLAMA_OPTION_NAMES = Object.keys(OLLAMA_OPTIONS) as OllamaOptionName[];

interface ValueOfType {
  int: number;
  float: number;
  bool: boolean;
  'string[]': string[];
}

/** A set of Ollama options as sent in a request: every option optional and typed. */
export type OllamaOptionValues = {
  -readonly [Name in OllamaOptionName]?: ValueOfType[(typeof OLLAMA_OPTIONS)[Name]['type']];
};

/** What a valid value of this option looks like, e.g. "an integer of at least 1". */
export function optionExpectation(spec: OllamaOptionSpec): string {
  if (spec.type === 'bool') return 'true or false';
  if (spec.type === 'string[]') return 'a list of strings';
  const kind = spec.type === 'int' ? 'an integer' : 'a number';
  if (spec.min !== undefined && spec.max !== undefined) return `${kind} between ${spec.min} and ${spec.max}`;
  if (spec.min !== undefined) return `${kind} of at least ${spec.min}`;
  if (spec.max !== undefined) return `${kind} of at most ${spec.max}`;
  return kind;
}

/** The zod schema of one option's value, failing with `must be <expectation>, got <value>`. */
function optionValueSchema(spec: OllamaOptionSpec): z.ZodMiniType {
  const error = mustBe(optionExpectation(spec));
  if (spec.type === 'bool') return z.boolean(error);
  // A single stop sequence may be written as a plain string.
  if (spec.type === 'string[]') {
    return preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string(mustBe('a string')), error));
  }
  const schema = spec.type === 'int' ? z.int(error) : z.number(error);
  const checks = [];
  if (spec.min !== undefined) checks.push(z.minimum(spec.min));
  if (spec.max !== undefined) checks.push(z.maximum(spec.max));
  return schema.check(...checks);
}

const VALUE_SCHEMAS = Object.fromEntries(
  Object.entries(OLLAMA_OPTIONS).map(([name, spec]) => [name, optionValueSchema(spec)]),
) as Record<OllamaOptionName, z.ZodMiniType>;

/** The `options:` section of the config: known options only, each checked against its type and range. */
export const ollamaOptionsSchema = z.strictObject(
  Object.fromEntries(OLLAMA_OPTION_NAMES.map((name) => [name, z.optional(VALUE_SCHEMAS[name])])),
) as unknown as z.ZodMiniType<OllamaOptionValues>;

/** The outcome of parsing `/set <option> <value>`: the typed value, or a message for the user. */
export type ParsedOllamaOption =
  | { ok: true; name: OllamaOptionName; value: number | string | boolean | string[] }
  | { ok: false; error: string };

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const TRUE_WORDS = new Set(['true', 'on', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'off', 'no', '0']);

/** Turns the typed text into a value of the option's type; undefined when it is not one. */
function convert(type: OllamaOptionType, text: string): unknown {
  if (type === 'int') return INTEGER.test(text) ? Number(text) : undefined;
  if (type === 'float') return DECIMAL.test(text) ? Number(text) : undefined;
  if (type === 'bool') {
    const word = text.toLowerCase();
    return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : undefined;
  }
  // `stop`: a JSON list for several sequences or special characters, else the text is one sequence.
  if (!text.startsWith('[')) return text === '' ? undefined : [text];
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The error for a name that is not an Ollama option, naming the nearest one; undefined for a known option. */
export function unknownOptionError(name: string): string | undefined {
  if (Object.hasOwn(OLLAMA_OPTIONS, name)) return undefined;
  const nearest = suggest(name, OLLAMA_OPTION_NAMES);
  const hint = nearest ? ` (did you mean "${nearest}"?)` : '';
  return `unknown Ollama option "${name}"${hint}`;
}

/**
 * Parses the value of `/set <option> <value>` against the option table. Errors name the option,
 * the expected type and range, and suggest the nearest option name for a typo.
 */
export function parseOllamaOption(name: string, raw: string): ParsedOllamaOption {
  const unknown = unknownOptionError(name);
  if (unknown) return { ok: false, error: unknown };
  const known = name as OllamaOptionName;
  const spec: OllamaOptionSpec = OLLAMA_OPTIONS[known];
  const text = raw.trim();
  const converted = convert(spec.type, text);
  if (converted === undefined) {
    return { ok: false, error: `${known}: must be ${optionExpectation(spec)}, got ${describeValue(text)}` };
  }
  const result = VALUE_SCHEMAS[known].safeParse(converted);
  if (!result.success) return { ok: false, error: `${known}: ${result.error.issues[0].message}` };
  return { ok: true, name: known, value: result.data as number | boolean | string[] };
}
