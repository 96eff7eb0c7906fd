import type { ModelInfo } from './interfaces.js';

/** Whether the model accepts `tools` (otherwise the server answers 400 "does not support tools"). */
export function supportsTools(info: Pick<ModelInfo, 'capabilities'>): boolean {
  return info.capabilities.includes('tools');
}

/** Whether the model accepts `think` (otherwise the server answers 400 "does not support thinking"). */
export function supportsThinking(info: Pick<ModelInfo, 'capabilities'>): boolean {
  return info.capabilities.includes('thinking');
}

/** Whether the model sees `images` (otherwise Ollama refuses them, or older servers drop them unseen). */
export function supportsVision(info: Pick<ModelInfo, 'capabilities'>): boolean {
  return info.capabilities.includes('vision');
}
