import type { ModelResponse, ChatRequest as NpmChatRequest } from 'ollama';
import type { ChatRequest, InstalledModel } from '../backend/interfaces.js';
import type { PullProgress, RunningModel } from '../backend/model-lifecycle.js';

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
  // Not in the npm client's types (0.6.x), but a field of Ollama's ChatRequest.
  if (request.truncate !== undefined) Object.assign(npmRequest, { truncate: request.truncate });
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

/** What `/api/ps` sends for one model (the npm types lack `context_length`). */
export interface PsEntryLike {
  name?: unknown;
  size?: unknown;
  size_vram?: unknown;
  context_length?: unknown;
  expires_at?: unknown;
}

/** One /api/ps entry in ochat's shape; numbers the server left out count as 0. */
export function toRunningModel(entry: PsEntryLike): RunningModel {
  const running: RunningModel = {
    name: String(entry.name ?? ''),
    size: typeof entry.size === 'number' ? entry.size : 0,
    sizeVram: typeof entry.size_vram === 'number' ? entry.size_vram : 0,
  };
  if (typeof entry.context_length === 'number' && entry.context_length > 0)
    running.contextLength = entry.context_length;
  const expires = entry.expires_at as Date | string | undefined;
  if (expires) running.expiresAt = typeof expires === 'string' ? expires : expires.toISOString();
  return running;
}

/** One /api/pull line in ochat's shape. */
export function toPullProgress(line: Record<string, unknown>): PullProgress {
  const progress: PullProgress = { status: String(line.status ?? '') };
  if (typeof line.digest === 'string') progress.digest = line.digest;
  if (typeof line.total === 'number') progress.total = line.total;
  if (typeof line.completed === 'number') progress.completed = line.completed;
  return progress;
}
