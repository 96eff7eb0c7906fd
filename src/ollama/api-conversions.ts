import type { ModelResponse, ChatRequest as NpmChatRequest } from 'ollama';
import type { ChatRequest, InstalledModel } from '../backend/interfaces.js';

/**
 * ochat's request in the npm client's types, always streamed. Messages are copied because the
 * npm client rewrites `images` on the objects it is given.
 */
export function toNpmChatRequest(request: ChatRequest): NpmChatRequest & { stream: true } {
  const npmRequest: NpmChatRequest & { stream: true } = {
    model: request.model,
    messages: request.messages.map((message) => ({ ...message })),
    stream: true,
  };
  if (request.options) npmRequest.options = request.options as NpmChatRequest['options'];
  if (request.think !== undefined) npmRequest.think = request.think;
  if (request.tools) npmRequest.tools = request.tools as NpmChatRequest['tools'];
  if (request.keep_alive !== undefined) npmRequest.keep_alive = request.keep_alive;
  return npmRequest;
}

/** One /api/tags entry in ochat's shape. */
export function toInstalledModel(model: ModelResponse): InstalledModel {
  const installed: InstalledModel = { name: model.name };
  if (typeof model.size === 'number') installed.size = model.size;
  if (model.details?.parameter_size) installed.parameterSize = model.details.parameter_size;
  if (model.details?.quantization_level) installed.quantization = model.details.quantization_level;
  const modified = model.modified_at as Date | string | undefined; // JSON gives a string, despite the npm type
  if (modified) installed.modifiedAt = typeof modified === 'string' ? modified : modified.toISOString();
  return installed;
}
