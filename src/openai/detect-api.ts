import { httpFetch } from '../ollama/http-fetch.js';
import type { FetchLike } from '../ollama/wire-response.js';
import { isRecord } from './engines.js';

/** How long each probe may take before the host is taken to not answer it. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * What answers at `host`: Ollama's native API (`/api/version`) is kept where there is one (it
 * does more than Ollama's own /v1: num_ctx, truncate:false, pull, ps); else an OpenAI-compatible
 * server (`/v1/models`). A URL ending in `/v1` is taken as OpenAI-compatible without asking.
 * Undefined: neither answered (down, or something else), left to the Ollama client to explain.
 */
export async function detectApi(
  host: string,
  options: { fetch?: FetchLike; headers?: Record<string, string> } = {},
): Promise<'ollama' | 'openai' | undefined> {
  if (/\/v1$/.test(host)) return 'openai';
  const get = async (path: string): Promise<unknown> => {
    const response = await (options.fetch ?? httpFetch)(`${host}${path}`, {
      headers: { Accept: 'application/json', ...options.headers },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) return { status: response.status };
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  try {
    const version = await get('/api/version');
    if (isRecord(version) && typeof version.version === 'string') return 'ollama';
    const models = await get('/v1/models');
    // 401: a server that wants a key (LiteLLM, a vLLM with --api-key) is still an OpenAI one.
    if (isRecord(models) && (Array.isArray(models.data) || models.status === 401)) return 'openai';
  } catch {
    // Down or not HTTP: the Ollama client says which.
  }
  return undefined;
}
