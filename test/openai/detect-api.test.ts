import { afterEach, describe, expect, it } from 'vitest';
import { detectApi } from '../../src/openai/detect-api.js';
import { unusedPort } from '../support/down-host.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { type OpenAiEmulator, startOpenAiEmulator } from '../support/openai-emulator.js';

let servers: (Emulator | OpenAiEmulator)[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

describe('detectApi', () => {
  it("keeps Ollama's native API where /api/version answers, asking nothing more", async () => {
    const ollama = await startEmulator();
    servers.push(ollama);
    expect(await detectApi(ollama.url)).toBe('ollama');
    expect(ollama.requests.map((r) => r.path)).toEqual(['/api/version']);
  });

  it.each(['vllm', 'sglang', 'llama-server', 'lm-studio', 'litellm'] as const)(
    '%s: OpenAI-compatible, by /v1/models',
    async (engine) => {
      const server = await startOpenAiEmulator({ engine });
      servers.push(server);
      expect(await detectApi(server.url)).toBe('openai');
      expect(server.requests.map((r) => r.path)).toEqual(['/api/version', '/v1/models']);
    },
  );

  it('a server that wants a key is still found out as OpenAI-compatible (401 on /v1/models)', async () => {
    const server = await startOpenAiEmulator({ engine: 'vllm', apiKey: 'sk-1' });
    servers.push(server);
    expect(await detectApi(server.url)).toBe('openai');
  });

  it('a URL ending in /v1 is OpenAI-compatible without a request', async () => {
    const server = await startOpenAiEmulator({ engine: 'vllm' });
    servers.push(server);
    expect(await detectApi(`${server.url}/v1`)).toBe('openai');
    expect(server.requests).toEqual([]);
  });

  it('nothing answering is left undecided, for the Ollama client to explain', async () => {
    expect(await detectApi(`http://127.0.0.1:${await unusedPort()}`)).toBeUndefined();
  });
});
