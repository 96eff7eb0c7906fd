import { DEFAULT_HOST } from '../platform/host.js';
import type { Config } from './schema.js';
import { TOOL_NAMES } from './tool-names.js';

/** Deeply frozen so that no caller can change the defaults of every other caller. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Most input lines remembered for ↑/↓, in the session and across runs. */
export const INPUT_HISTORY_LIMIT = 500;

/**
 * The config used when there is no config file. Written out rather than computed by the schema,
 * so that starting without a config file never loads the validator (start-up time); a test checks
 * that it equals what the schema fills in for an empty file.
 */
export const DEFAULT_CONFIG: Config = deepFreeze({
  host: DEFAULT_HOST,
  headers: {},
  request_timeout_s: 120,
  instructions_files: ['AGENTS.md'],
  options: {},
  compaction: {
    auto: true,
    reserve: { ratio: 0.25, min_tokens: 1024 },
    keep_recent: { ratio: 0.3, min_tokens: 1024 },
    summary: { ratio: 0.15, min_tokens: 512 },
    max_message_chars: 1000,
    unload_after: false,
    cut_long_messages: false,
    reuse_cache: 'auto',
    details: 'on',
    details_share: 0.6,
  },
  tools: {
    enabled: [...TOOL_NAMES],
    confirm: ['write_file', 'run_command'],
    allowed_paths: [],
    max_steps: 10,
    max_output_chars: 20_000,
    command_timeout: 60,
    max_definitions_share: 0.25,
  },
  attachments: {
    max_file_bytes: 100_000,
    max_image_bytes: 20_000_000,
  },
  mcp_servers: {},
  mcp_start_timeout_s: 10,
});
