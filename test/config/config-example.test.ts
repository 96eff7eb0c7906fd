import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { loadConfig } from '../../src/config/load.js';
import { OLLAMA_OPTION_NAMES } from '../../src/config/ollama-options.js';
import { configSchema } from '../../src/config/schema.js';

const examplePath = fileURLToPath(new URL('../../config.example.yml', import.meta.url));
const exampleText = readFileSync(examplePath, 'utf8');

/** Every leaf of a config as `dotted.key → value`, with null (unset in YAML) as undefined. */
function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [key, inner] of Object.entries(value)) {
      for (const [path, leaf] of leaves(inner, prefix ? `${prefix}.${key}` : key)) found.set(path, leaf);
    }
  } else {
    found.set(prefix, value ?? undefined);
  }
  return found;
}

/** Every key the schema knows, as dotted paths down to the leaves (options excepted: a free map). */
function schemaLeafKeys(): string[] {
  const unsetEverywhere = configSchema.parse({});
  const withAll = { ...unsetEverywhere, model: 'm', system: 's', think: true, keep_alive: '5m' };
  const keys = [...leaves(withAll).keys()];
  return [...keys, 'compaction.model', 'compaction.prompt'];
}

describe('config.example.yml', () => {
  it('loads to exactly the defaults', async () => {
    expect(await loadConfig(examplePath, { explicit: true })).toEqual(DEFAULT_CONFIG);
  });

  it('writes every key out explicitly, with its default value', () => {
    const written = leaves(parse(exampleText));
    for (const key of schemaLeafKeys())
      expect(written.has(key), `${key} missing from the example`).toBe(true);
    const defaults = leaves(DEFAULT_CONFIG);
    for (const [key, value] of written) expect(value, key).toEqual(defaults.get(key));
  });

  it('explains every key with a comment', () => {
    const lines = exampleText.split('\n');
    lines.forEach((line, index) => {
      const isKey = /^\s*[a-z_]+:/.test(line) && !/^\s*(ratio|min_tokens):/.test(line);
      if (isKey) expect(lines[index - 1].trim().startsWith('#'), `no comment above: ${line}`).toBe(true);
    });
  });

  it('lists every Ollama option the schema accepts', () => {
    for (const name of OLLAMA_OPTION_NAMES) expect(exampleText).toContain(name);
  });
});
