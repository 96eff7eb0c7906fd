import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseModelSpec } from './emulator-model-spec.js';

const CLI = resolve(import.meta.dirname, 'emulator-cli.ts');

describe('parseModelSpec', () => {
  it('reads a name, capabilities and a Modelfile num_ctx', () => {
    expect(parseModelSpec('qwen3:8b+tools+thinking@8192')).toEqual({
      name: 'qwen3:8b',
      capabilities: ['completion', 'tools', 'thinking'],
      numCtxParam: 8192,
    });
    expect(parseModelSpec('llama3.2')).toEqual({ name: 'llama3.2', capabilities: ['completion'] });
  });
});

describe('emulator-cli', () => {
  it('prints its URL and serves the given models and reply size until killed', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        CLI,
        '--port',
        '0',
        '--models',
        'a:1,b+tools',
        '--tps',
        'Infinity',
        '--reply-tokens',
        '7',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [firstOutput] = (await once(child.stdout, 'data')) as [Buffer];
      const url = firstOutput.toString().trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const tags = (await (await fetch(`${url}/api/tags`)).json()) as { models: { name: string }[] };
      expect(tags.models.map((m) => m.name)).toEqual(['a:1', 'b:latest']);
      const body = JSON.stringify({ model: 'b', messages: [{ role: 'user', content: 'x' }], stream: false });
      const reply = (await (await fetch(`${url}/api/chat`, { method: 'POST', body })).json()) as {
        eval_count: number;
      };
      expect(reply.eval_count).toBe(7);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });
});
