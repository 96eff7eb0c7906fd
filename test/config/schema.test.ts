import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { configSchema } from '../../src/config/schema.js';

describe('DEFAULT_CONFIG', () => {
  it('is exactly what the schema fills in for an empty file (it is written out for start-up speed)', () => {
    expect(configSchema.parse({})).toEqual(DEFAULT_CONFIG);
  });

  it('holds the documented defaults, with "none" settings left unset', () => {
    expect(DEFAULT_CONFIG).toEqual({
      host: 'http://127.0.0.1:11434',
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
        enabled: ['read_file', 'list_directory', 'search_files', 'get_time', 'write_file', 'run_command'],
        confirm: ['write_file', 'run_command'],
        allowed_paths: [],
        max_steps: 10,
        max_output_chars: 20000,
        command_timeout: 60,
        max_definitions_share: 0.25,
      },
      attachments: { max_file_bytes: 100_000, max_image_bytes: 20_000_000 },
      mcp_servers: {},
      mcp_start_timeout_s: 10,
    });
    expect(DEFAULT_CONFIG.model).toBeUndefined();
    expect(DEFAULT_CONFIG.compaction.model).toBeUndefined();
  });

  it('cannot be changed by a caller', () => {
    expect(() => {
      (DEFAULT_CONFIG.tools.enabled as string[]).push('x');
    }).toThrow(TypeError);
    expect(() => {
      DEFAULT_CONFIG.compaction.reserve.ratio = 0.5;
    }).toThrow(TypeError);
  });
});

describe('configSchema', () => {
  it('fills defaults around the keys given, keeping sibling defaults of a partial section', () => {
    const config = configSchema.parse({ compaction: { reserve: { ratio: 0.1 } }, tools: { max_steps: 3 } });
    expect(config.compaction.reserve).toEqual({ ratio: 0.1, min_tokens: 1024 });
    expect(config.compaction.summary).toEqual(DEFAULT_CONFIG.compaction.summary);
    expect(config.tools.max_steps).toBe(3);
    expect(config.tools.confirm).toEqual(['write_file', 'run_command']);
  });

  it('treats null (an empty YAML value) as "not set"', () => {
    const config = configSchema.parse({
      model: null,
      system: null,
      think: null,
      options: null,
      compaction: null,
    });
    expect(config.model).toBeUndefined();
    expect(config.options).toEqual({});
    expect(config.compaction).toEqual(DEFAULT_CONFIG.compaction);
  });

  it('accepts every think setting', () => {
    for (const think of [true, false, 'low', 'medium', 'high'] as const) {
      expect(configSchema.parse({ think }).think).toBe(think);
    }
  });

  it('takes keep_alive in the forms Ollama accepts, and refuses the others', () => {
    for (const keep_alive of ['30m', '2h', '1h30m', '-1s', '0', 300, -1, 0]) {
      expect(configSchema.parse({ keep_alive }).keep_alive).toBe(keep_alive);
    }
    expect(configSchema.parse({ keep_alive: null }).keep_alive).toBeUndefined();
    for (const keep_alive of ['30 minutes', 'forever', true, '']) {
      const result = configSchema.safeParse({ keep_alive });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].message).toMatch(/a duration such as 30m or 2h/);
    }
    expect(configSchema.parse({}).compaction.unload_after).toBe(false);
    expect(configSchema.safeParse({ compaction: { unload_after: 'yes' } }).success).toBe(false);
    expect(configSchema.parse({ compaction: { reuse_cache: 'off' } }).compaction.reuse_cache).toBe('off');
    const wrong = configSchema.safeParse({ compaction: { reuse_cache: true } });
    expect(wrong.error?.issues[0].message).toMatch(/"auto" or "off"/);
  });

  it('takes compaction.details as on or off (YAML booleans too) and a share between 0 and 1', () => {
    const details = (value: unknown) => configSchema.safeParse({ compaction: { details: value } });
    expect(details('off').data?.compaction.details).toBe('off');
    expect(details(false).data?.compaction.details).toBe('off');
    expect(details(true).data?.compaction.details).toBe('on');
    expect(details('maybe').success).toBe(false);
    expect(configSchema.safeParse({ compaction: { details_share: 1.5 } }).success).toBe(false);
    expect(configSchema.parse({ compaction: { details_share: 0.4 } }).compaction.details_share).toBe(0.4);
  });

  it('rejects ratios at or beyond 0 and 1, and non-positive token floors', () => {
    for (const ratio of [0, 1, -0.1, 1.5]) {
      expect(configSchema.safeParse({ compaction: { summary: { ratio } } }).success).toBe(false);
    }
    expect(configSchema.safeParse({ compaction: { summary: { min_tokens: 0 } } }).success).toBe(false);
    expect(configSchema.safeParse({ compaction: { summary: { min_tokens: 1.5 } } }).success).toBe(false);
  });

  it('takes request_timeout_s from 1 s up to an hour (node:http has no limit of its own)', () => {
    expect(configSchema.parse({ request_timeout_s: 3600 }).request_timeout_s).toBe(3600);
    expect(configSchema.safeParse({ request_timeout_s: 3601 }).success).toBe(false);
    expect(configSchema.safeParse({ request_timeout_s: 0 }).success).toBe(false);
  });

  it('rejects unknown tool names and out-of-range tool limits', () => {
    expect(configSchema.safeParse({ tools: { enabled: ['rm_rf'] } }).success).toBe(false);
    expect(configSchema.safeParse({ tools: { max_steps: 0 } }).success).toBe(false);
    expect(configSchema.safeParse({ tools: { command_timeout: 0 } }).success).toBe(false);
    expect(configSchema.parse({ tools: { enabled: [] } }).tools.enabled).toEqual([]);
  });
});

describe('OpenAI-compatible server keys', () => {
  it('takes api, api_key_env and headers, and refuses what they cannot be', () => {
    const team = ['$', '{TEAM}'].join(''); // a ${VAR} reference, as the config file holds it
    const ok = configSchema.safeParse({
      api: 'openai',
      api_key_env: 'VLLM_KEY',
      headers: { 'X-Team': team },
    });
    expect(ok.success && ok.data).toMatchObject({
      api: 'openai',
      api_key_env: 'VLLM_KEY',
      headers: { 'X-Team': team },
    });
    expect(configSchema.safeParse({ api: 'vllm' }).success).toBe(false);
    expect(configSchema.safeParse({ api_key_env: 'sk-123 secret' }).success).toBe(false);
    expect(configSchema.safeParse({ headers: { 'X-Team': 3 } }).success).toBe(false);
  });
});
