import * as z from 'zod/mini';
import { suggest } from '../text/suggest.js';
import { describeValue, mustBe } from './describe-value.js';
import { OLLAMA_OPTIONS, type OllamaOptionSpec, type OllamaOptionType } from './ollama-option-table.js';
import { preprocess } from './preprocess.js';

export { OLLAMA_OPTIONS, type OllamaOptionSpec, type OllamaOptionType } from './ollama-option-table.js';

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
