/**
 * Loads the OpenAI-compatible backend on demand: an Ollama chat never loads it. In dist/ochat.cjs
 * (scripts/build.mjs, ENTRY_ALSO): the one-shot runs from a code cache, which cannot import().
 */
export function loadOpenAiRuntime(): Promise<typeof import('./openai-runtime.js')> {
  return import('./openai-runtime.js');
}
