/* biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is what the config file holds */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunSettings } from '../../src/cli/settings.js';
import { AppState } from '../../src/config/app-state.js';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { createBackend } from '../../src/modes/create-backend.js';
import { OllamaClient } from '../../src/ollama/client.js';
import { OpenAiClient } from '../../src/openai/client.js';
import { DEFAULT_HOST } from '../../src/platform/host.js';
import { type OpenAiEmulator, startOpenAiEmulator } from '../support/openai-emulator.js';

let emulator: OpenAiEmulator | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function settings(
  host: string,
  config: Partial<RunSettings['config']> = {},
  flags: RunSettings['flags'] = {},
): RunSettings {
  return { flags, config: { ...DEFAULT_CONFIG, ...config }, configFile: '', host };
}

async function state(): Promise<AppState> {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-backend-'));
  dirs.push(dir);
  const appState = new AppState({ cwd: dir });
  await appState.open();
  return appState;
}

describe('createBackend', () => {
  it('takes the default host as Ollama without asking it anything', async () => {
    const backend = await createBackend(settings(DEFAULT_HOST), await state(), {});
    expect(backend).toBeInstanceOf(OllamaClient);
  });

  it('finds an OpenAI-compatible server, remembers it, and sends the key and the headers with ${VAR} filled', async () => {
    emulator = await startOpenAiEmulator({ engine: 'vllm' });
    const appState = await state();
    const env = { TEAM_TOKEN: 't-42', MY_KEY: 'sk-mine', OCHAT_API_KEY: 'sk-other' };
    const config = { api_key_env: 'MY_KEY', headers: { 'X-Team': '${TEAM_TOKEN}' } };
    const backend = await createBackend(settings(emulator.url, config), appState, env);
    expect(backend).toBeInstanceOf(OpenAiClient);
    expect(appState.serverApi(emulator.url)).toBe('openai');
    await backend.listModels();
    const listed = emulator.requests.at(-1)!;
    expect(listed.headers.authorization).toBe('Bearer sk-mine');
    expect(listed.headers['x-team']).toBe('t-42');
    // Asked again: remembered, so no probe.
    const probes = emulator.requests.filter((r) => r.path === '/api/version').length;
    await createBackend(settings(emulator.url, config), appState, env);
    expect(emulator.requests.filter((r) => r.path === '/api/version')).toHaveLength(probes);
  });

  it('a state not opened yet (a one-shot with -m) is opened to read what answered before, not probed again', async () => {
    emulator = await startOpenAiEmulator({ engine: 'vllm' });
    const earlier = await state();
    earlier.setServerApi(emulator.url, 'openai');
    const unopened = new AppState({ cwd: dirs.at(-1) });
    expect(await createBackend(settings(emulator.url), unopened, {})).toBeInstanceOf(OpenAiClient);
    expect(emulator.requests).toEqual([]);
  });

  it('a host from $OLLAMA_HOST is taken as Ollama without asking; the same host given by --host is asked', async () => {
    emulator = await startOpenAiEmulator({ engine: 'vllm' });
    const appState = await state();
    const env = { OLLAMA_HOST: emulator.url };
    expect(await createBackend(settings(emulator.url), appState, env)).toBeInstanceOf(OllamaClient);
    expect(emulator.requests).toEqual([]);
    const given = settings(emulator.url, {}, { host: emulator.url });
    expect(await createBackend(given, appState, env)).toBeInstanceOf(OpenAiClient);
  });

  it('--api overrides config api and what was remembered', async () => {
    const appState = await state();
    appState.setServerApi('http://gpu:8000', 'openai');
    const forced = await createBackend(
      settings('http://gpu:8000', { api: 'openai' }, { api: 'ollama' }),
      appState,
      {},
    );
    expect(forced).toBeInstanceOf(OllamaClient);
    expect(await createBackend(settings('http://gpu:8000'), appState, {})).toBeInstanceOf(OpenAiClient);
  });
});
