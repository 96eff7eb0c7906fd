import type { ChatBackend } from '../backend/chat-backend.js';
import type { RunSettings } from '../cli/settings.js';
import type { AppState } from '../config/app-state.js';
import { expandEnvReferences } from '../mcp/expand-env.js';
import { OllamaClient } from '../ollama/client.js';
import { loadOpenAiRuntime } from '../openai/load-openai.js';
import { DEFAULT_HOST } from '../platform/host.js';

/** Where an OpenAI-compatible server's API key is read from, in order (config `api_key_env` first). */
const KEY_VARIABLES = ['OCHAT_API_KEY', 'OPENAI_API_KEY'];

/**
 * The backend for the host: Ollama's native client, or the OpenAI-compatible one (loaded only
 * then). `--api` / config `api` decide; else what answered at the host last time; else, for a host
 * other than Ollama's default, what answers now (remembered for the next start). The default host
 * is taken as Ollama without asking, so an Ollama chat's start costs nothing more.
 */
export async function createBackend(
  settings: RunSettings,
  appState: AppState,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChatBackend> {
  const { config, flags, host } = settings;
  const requestTimeoutMs = config.request_timeout_s * 1000;
  const headers = expandEnvReferences(config.headers, env).values;
  let api = flags.api ?? config.api ?? appState.serverApi(host);
  const fromOllamaVariable = !flags.host && Boolean(env.OLLAMA_HOST?.trim());
  const mayProbe = host !== DEFAULT_HOST && !fromOllamaVariable;
  if (!api && mayProbe) {
    // A one-shot with -m has not opened the state yet: reading it costs less than a probe of the host.
    await appState.open();
    api = appState.serverApi(host);
  }
  if (!api && mayProbe) {
    api = await (await loadOpenAiRuntime()).detectApi(host, { headers });
    if (api) appState.setServerApi(host, api);
  }
  if (api !== 'openai') return new OllamaClient({ host, requestTimeoutMs });
  const { OpenAiClient } = await loadOpenAiRuntime();
  return new OpenAiClient({ host, requestTimeoutMs, headers, apiKey: apiKey(config.api_key_env, env) });
}

/** The API key and the variable it came from, if any is set. */
function apiKey(
  configured: string | undefined,
  env: NodeJS.ProcessEnv,
): { value: string; variable: string } | undefined {
  for (const variable of configured ? [configured, ...KEY_VARIABLES] : KEY_VARIABLES) {
    const value = env[variable]?.trim();
    if (value) return { value, variable };
  }
  return undefined;
}
