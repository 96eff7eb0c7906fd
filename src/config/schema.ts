import * as z from 'zod/mini';
import { DEFAULT_HOST, InvalidHostError, parseHost } from '../platform/host.js';
import { mustBe } from './describe-value.js';
import { KEEP_ALIVE_FORMS, toKeepAlive } from './keep-alive.js';
import { mcpServersSchema } from './mcp-servers-schema.js';
import { ollamaOptionsSchema } from './ollama-options.js';
import { preprocess } from './preprocess.js';
import { TOOL_NAMES } from './tool-names.js';

/** YAML's `key:` with nothing after it is null; for ochat that means "not set", as if the key were absent. */
function nullAsUnset(value: unknown): unknown {
  return value === null ? undefined : value;
}

/** A section left empty (`compaction:` with every line below commented out) gets its defaults. */
function section<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  // `{} as never`: zod cannot see through the generic shape that every key of it has a default.
  return preprocess(nullAsUnset, z.prefault(z.strictObject(shape, mustBe('a mapping')), {} as never));
}

/** A setting whose default is "none": absent or null in the file, undefined in the config. */
function unset<Schema extends z.ZodMiniType>(schema: Schema) {
  return preprocess(nullAsUnset, z.optional(schema));
}

const ratio = () => z.number(mustBe('a number between 0 and 1 (exclusive)')).check(z.gt(0), z.lt(1));
const positiveInt = (max = Number.MAX_SAFE_INTEGER) =>
  z
    .int(mustBe(max === Number.MAX_SAFE_INTEGER ? 'a positive integer' : `an integer between 1 and ${max}`))
    .check(z.minimum(1), z.maximum(max));
const nonEmptyText = (what: string) => z.string(mustBe(what)).check(z.trim(), z.minLength(1));
const toolList = () =>
  z.array(z.enum(TOOL_NAMES, mustBe(`one of ${TOOL_NAMES.join(', ')}`)), mustBe('a list of tool names'));

/** A host as `--host` and OLLAMA_HOST take it; checked here so the error points into the file. */
const validHost = z.superRefine((value: string, context) => {
  try {
    parseHost(value);
  } catch (error) {
    if (!(error instanceof InvalidHostError)) throw error;
    context.addIssue({ code: 'custom', message: error.message, input: value });
  }
});

/** A token budget: `floor(max(ratio × num_ctx, min_tokens))` (see DESIGN.md §3). */
function budget(defaults: { ratio: number; min_tokens: number }) {
  return section({
    ratio: z._default(ratio(), defaults.ratio),
    min_tokens: z._default(positiveInt(), defaults.min_tokens),
  });
}

/** `keep_alive`: a Go duration string or a number of seconds, as Ollama accepts it. */
const keepAliveSchema = z.union([z.number(), z.string()], mustBe(KEEP_ALIVE_FORMS)).check(
  z.superRefine((value, context) => {
    if (toKeepAlive(value) === undefined)
      context.addIssue({
        code: 'custom',
        message: `must be ${KEEP_ALIVE_FORMS}, got ${JSON.stringify(value)}`,
        input: value,
      });
  }),
);

/** Reasoning effort for thinking models: on/off, or a level for models that take one. */
const thinkSchema = z.union(
  [z.boolean(), z.enum(['low', 'medium', 'high'])],
  mustBe('true, false, "low", "medium", "high" or null'),
);

/** The `compaction:` section: when and how the conversation is summarized. */
const compactionSchema = section({
  auto: z._default(z.boolean(mustBe('true or false')), true),
  model: unset(nonEmptyText('a model name or null')),
  reserve: budget({ ratio: 0.25, min_tokens: 1024 }),
  keep_recent: budget({ ratio: 0.3, min_tokens: 1024 }),
  summary: budget({ ratio: 0.15, min_tokens: 512 }),
  max_message_chars: z._default(positiveInt(), 1000),
  cut_long_messages: z._default(z.boolean(mustBe('true or false')), false),
  prompt: unset(nonEmptyText('a prompt text or null')),
  // The exact details check (compaction/details.ts); YAML's true/false read as on/off.
  details: z._default(
    preprocess(
      (value) => (value === true ? 'on' : value === false ? 'off' : value),
      z.enum(['on', 'off'], mustBe('on or off')),
    ),
    'on',
  ),
  // Share of the summary budget the list of exact details the summary dropped is sure of (it takes no more than it needs).
  details_share: z._default(ratio(), 0.6),
  // Free the summarizer model (when it is not the chat model) after each compaction.
  unload_after: z._default(z.boolean(mustBe('true or false')), false),
  // auto: the chat model summarizes by continuing the chat's own request (the server's KV cache).
  reuse_cache: z._default(z.enum(['auto', 'off'], mustBe('"auto" or "off"')), 'auto'),
});

/** The `tools:` section: which tools the model may call and how far they may go. */
const toolsSchema = section({
  enabled: z._default(toolList(), [...TOOL_NAMES]),
  confirm: z._default(toolList(), ['write_file', 'run_command']),
  allowed_paths: z._default(
    z.array(nonEmptyText('a directory path'), mustBe('a list of directory paths')),
    [],
  ),
  max_steps: z._default(positiveInt(1000), 10),
  max_output_chars: z._default(positiveInt(), 20_000),
  command_timeout: z._default(
    z.number(mustBe('a number of seconds between 1 and 86400')).check(z.minimum(1), z.maximum(86_400)),
    60,
  ),
  // Tool definitions past this share of num_ctx are deferred behind `find_tools`.
  max_definitions_share: z._default(ratio(), 0.25),
});

/** The `attachments:` section: how much of a file `@path` may bring into a message. */
const attachmentsSchema = section({
  max_file_bytes: z._default(positiveInt(), 100_000),
  max_image_bytes: z._default(positiveInt(), 20_000_000),
});

/**
 * The whole config file. Every key is optional and strict: an unknown key anywhere is an
 * error, so a typo never silently falls back to a default.
 */
export const configSchema = z.strictObject(
  {
    model: unset(nonEmptyText('a model name or null')),
    host: z._default(nonEmptyText('a host URL').check(validHost), DEFAULT_HOST),
    // Which protocol the host speaks; unset: found out (Ollama's native API, else OpenAI-compatible).
    api: unset(z.enum(['ollama', 'openai'], mustBe('ollama, openai or null'))),
    // The environment variable holding the OpenAI-compatible server's API key (never the key itself).
    api_key_env: unset(
      z
        .string(mustBe('an environment variable name'))
        .check(
          z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name, e.g. VLLM_API_KEY'),
        ),
    ),
    // Extra HTTP headers for every request to an OpenAI-compatible server; values may use ${VAR}.
    headers: preprocess(
      nullAsUnset,
      z._default(z.record(z.string(), z.string(mustBe('a header value (a text)')), mustBe('a mapping')), {}),
    ),
    // Up to an hour: a huge model on a slow disk can take minutes to load before its first byte.
    request_timeout_s: z._default(
      z.number(mustBe('a number of seconds between 1 and 3600')).check(z.minimum(1), z.maximum(3600)),
      120,
    ),
    system: unset(z.string(mustBe('a text or null'))),
    // Instruction files (AGENTS.md) put in the system message; [] reads none.
    instructions_files: preprocess(
      nullAsUnset,
      z._default(z.array(nonEmptyText('a file name'), mustBe('a list of file names')), ['AGENTS.md']),
    ),
    think: unset(thinkSchema),
    keep_alive: unset(keepAliveSchema),
    options: preprocess(nullAsUnset, z._default(ollamaOptionsSchema, {})),
    compaction: compactionSchema,
    tools: toolsSchema,
    attachments: attachmentsSchema,
    mcp_servers: preprocess(nullAsUnset, z._default(mcpServersSchema, {})),
    // How long a one-shot waits for its MCP servers before the first request.
    mcp_start_timeout_s: z._default(
      z.number(mustBe('a number of seconds between 0 and 600')).check(z.minimum(0), z.maximum(600)),
      10,
    ),
  },
  mustBe('a mapping of config keys'),
);

/** The validated config with every default filled in; `undefined` means "not set" (null in the file). */
export type Config = z.output<typeof configSchema>;
