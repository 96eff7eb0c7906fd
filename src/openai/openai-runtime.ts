/** What the lazily loaded OpenAI-compatible backend offers (see load-openai.ts). */
export { OpenAiClient, type OpenAiClientOptions } from './client.js';
export { detectApi } from './detect-api.js';
