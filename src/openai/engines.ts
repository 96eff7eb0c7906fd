/**
 * The OpenAI-compatible servers ochat knows by name, and how to tell them apart from what their
 * `/v1/models` says of a model (`owned_by`, the fields only one engine sends).
 */
export type Engine = 'vllm' | 'sglang' | 'llama-server' | 'lm-studio' | 'litellm' | 'ollama-v1' | 'unknown';

/** Each engine's name in messages. */
export const ENGINE_NAMES: Record<Engine, string> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  'llama-server': 'llama-server',
  'lm-studio': 'LM Studio',
  litellm: 'LiteLLM',
  'ollama-v1': "Ollama's /v1",
  unknown: 'the server',
};

/** The engine a `/v1/models` entry comes from, by its `owned_by` and the fields it carries. */
export function engineOf(entry: Record<string, unknown> | undefined): Engine {
  if (!entry) return 'unknown';
  const owner = typeof entry.owned_by === 'string' ? entry.owned_by.toLowerCase() : '';
  if (owner === 'vllm') return 'vllm';
  if (owner === 'sglang') return 'sglang';
  if (owner === 'llamacpp' || isRecord(entry.meta)) return 'llama-server';
  if (owner === 'organization_owner') return 'lm-studio';
  if (owner === 'library') return 'ollama-v1';
  return 'unknown';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
