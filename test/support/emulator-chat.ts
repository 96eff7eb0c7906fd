import type { ServerResponse } from 'node:http';
import { decodeKeepAlive } from './emulator-duration.js';
import { isClosed, sendError, sendJson, waitForClose, waitUnlessClosed } from './emulator-http.js';
import { countImages, IMAGE_TOKENS, NO_VISION_ERROR } from './emulator-images.js';
import { messageShapeError } from './emulator-message-shape.js';
import { doneMetrics } from './emulator-metrics.js';
import type { ResolvedModel } from './emulator-models.js';
import { cachedTokens, type PromptSegment, promptSegments, replySegment } from './emulator-prompt-cache.js';
import { type ChunkMessage, planReply, type ReplyPlan } from './emulator-reply.js';
import type { EmulatorState } from './emulator-state.js';
import { streamReply } from './emulator-stream.js';
import { countPromptTokens, countToolTokens } from './emulator-tokens.js';
import { fitToContext } from './emulator-truncation.js';
import type { ChatMessageLike, ChatRequestRecord, ScriptedReply } from './emulator-types.js';

/** Characters of the last user message the default reply echoes. */
const ECHO_LIMIT = 200;

/** The reply when no responder answers and nothing is queued: deterministic, shows what was seen. */
export function defaultReply(kept: readonly ChatMessageLike[]): ScriptedReply {
  const lastUser = [...kept].reverse().find((message) => message.role === 'user');
  return { content: `Echo: ${(lastUser?.content ?? '').slice(0, ECHO_LIMIT)}` };
}

/** Ollama's full name of a model, as its capability errors print it. */
function registryName(model: ResolvedModel): string {
  const slashes = model.name.split('/').length - 1;
  if (slashes >= 2) return model.name;
  return slashes === 1 ? `registry.ollama.ai/${model.name}` : `registry.ollama.ai/library/${model.name}`;
}

/** Ollama's refusal of a prompt over num_ctx when the request says `truncate: false`. */
export const INPUT_TOO_LONG = 'the input length exceeds the context length';

/** Go's decoding of the request's scalar fields: a wrong JSON type is a 400 with its wording. */
function requestFieldError(request: Record<string, unknown>): string | undefined {
  for (const field of ['truncate', 'shift', 'stream'] as const) {
    const value = request[field];
    if (value !== undefined && value !== null && typeof value !== 'boolean') {
      const kind = Array.isArray(value) ? 'array' : typeof value;
      return `json: cannot unmarshal ${kind} into Go struct field ChatRequest.${field} of type bool`;
    }
  }
  const keepAlive = decodeKeepAlive(request.keep_alive);
  return keepAlive.ok ? undefined : keepAlive.error;
}

/** `think` asks for thinking: true or a level such as "high". */
function wantsThinking(think: unknown): boolean {
  return think === true || (typeof think === 'string' && think !== '' && think !== 'false');
}

/** The capability error Ollama would answer with, checked in Ollama's order, if any. */
function capabilityError(model: ResolvedModel, body: Record<string, unknown>): string | undefined {
  const caps = model.capabilities;
  if (wantsThinking(body.think) && !caps.includes('thinking')) {
    return `"${body.model}" does not support thinking`;
  }
  if (!caps.includes('completion')) return `"${body.model}" does not support chat`;
  if (Array.isArray(body.tools) && body.tools.length > 0 && !caps.includes('tools')) {
    return `${registryName(model)} does not support tools`;
  }
  return undefined;
}

/** A `done:true` object without metrics, as load, unload and the end of a reply start. */
function finalObject(model: string, doneReason: string) {
  return {
    model,
    created_at: new Date().toISOString(),
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: doneReason,
  };
}

/** Handles one POST /api/chat whose body has been read, faithfully to Ollama's ChatHandler. */
export async function handleChat(state: EmulatorState, body: unknown, res: ServerResponse): Promise<void> {
  const startedAt = performance.now();
  const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const sent = (Array.isArray(request.messages) ? request.messages : []) as ChatMessageLike[];
  const options = (request.options ?? {}) as Record<string, unknown>;
  const model = state.findModel(request.model);
  // Ollama's ChatHandler: the Modelfile SYSTEM is prepended only when the chat does not start with one.
  const messages =
    model?.system && sent.length > 0 && sent[0].role !== 'system'
      ? [{ role: 'system', content: model.system }, ...sent]
      : sent;
  const toolTokens = countToolTokens(request.tools);
  const imageTokens = model?.capabilities.includes('vision') ? IMAGE_TOKENS : 0;
  const numCtx = state.numCtxFor(model, options.num_ctx);
  const record: ChatRequestRecord = {
    body,
    promptTokens: countPromptTokens(messages, imageTokens) + toolTokens,
    promptEvalCount: 0,
    promptCachedCount: 0,
    truncated: false,
    numCtx,
    model: model?.name ?? String(request.model ?? ''),
    keptMessages: messages,
  };
  // A preload or unload asks for no reply: kept apart, so tests count the conversation's requests.
  (sent.length === 0 ? state.loadRequests : state.chats).push(record);
  const reject = (status: number, message: string) => {
    record.error = { status, message };
    sendError(res, status, message);
  };

  const shapeError = Array.isArray(request.messages) ? messageShapeError(request.messages) : undefined;
  if (shapeError) return reject(400, shapeError);
  const fieldError = requestFieldError(request);
  if (fieldError) return reject(400, fieldError);
  if (typeof request.model !== 'string' || request.model.trim() === '')
    return reject(400, 'model is required');
  if (!model) return reject(404, `model '${request.model}' not found`);
  const keepAlive = decodeKeepAlive(request.keep_alive);
  const keepAliveMs = keepAlive.ok ? keepAlive.ms : 0;
  if (messages.length === 0 && keepAliveMs === 0) {
    state.unload(model);
    return sendJson(res, 200, finalObject(request.model, 'unload'));
  }
  const refusal = capabilityError(model, request);
  if (refusal) return reject(400, refusal);
  // A model not loaded with this window loads first: nothing is sent until it has.
  const cold = !state.isLoaded(model, numCtx);
  state.markModelUsed(model, numCtx, keepAliveMs);
  if (cold && !(await waitUnlessClosed(res, state.loadDelayMs))) return;
  if (messages.length === 0) {
    return sendJson(res, 200, finalObject(request.model, 'load'));
  }

  const fitted = fitToContext(messages, numCtx, toolTokens, imageTokens);
  // `truncate: false`: the server refuses a prompt over the window instead of dropping messages.
  if (request.truncate === false && fitted.truncated && !state.ignoresTruncate)
    return reject(400, INPUT_TOO_LONG);
  record.keptMessages = fitted.kept;
  record.promptEvalCount = fitted.promptEvalCount;
  record.truncated = fitted.truncated;
  const segments = promptSegments(request.tools, fitted.kept, imageTokens);
  record.promptCachedCount = Math.max(
    0,
    Math.min(cachedTokens(state.promptCache.get(model.name) ?? [], segments), record.promptEvalCount - 1),
  );
  // The runner is handed the images of what survived truncation; one without a projector refuses them.
  if (imageTokens === 0 && countImages(fitted.kept) > 0) return reject(400, NO_VISION_ERROR);
  const accepted = { ...request, model: request.model };
  await generate(state, { request: accepted, model, record, segments, res, startedAt, reject });
}

/** What generating one reply needs from the request handling. */
interface Generation {
  request: Record<string, unknown> & { model: string };
  model: ResolvedModel;
  record: ChatRequestRecord;
  /** The prompt as the runner's cache compares it. */
  segments: PromptSegment[];
  res: ServerResponse;
  startedAt: number;
  reject: (status: number, message: string) => void;
}

/** Picks the scripted reply for an accepted chat and sends it, streamed or whole. */
async function generate(state: EmulatorState, job: Generation): Promise<void> {
  const { request, model, record, segments, res, startedAt, reject } = job;
  const options = (request.options ?? {}) as Record<string, unknown>;
  let scripted: ScriptedReply;
  try {
    scripted = (await state.nextReply(record)) ?? defaultReply(record.keptMessages);
  } catch (error) {
    return reject(
      500,
      `emulator responder failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!(await waitUnlessClosed(res, scripted.firstByteDelayMs ?? 0))) return;
  if (scripted.fault?.kind === 'http') return reject(scripted.fault.status, scripted.fault.error);

  const tokensPerSecond = scripted.tokensPerSecond ?? state.tokensPerSecond;
  const plan = planReply(scripted, {
    emitThinking: model.capabilities.includes('thinking') && request.think !== false,
    numPredict: typeof options.num_predict === 'number' ? options.num_predict : undefined,
  });
  // The slot now holds this prompt and the reply being generated.
  state.promptCache.set(model.name, [...segments, replySegment(mergeChunks(plan.chunks))]);
  const firstByteAt = performance.now();
  const doneObject = () => ({
    ...finalObject(request.model, plan.doneReason),
    ...doneMetrics(
      { startedAt, firstByteAt, finishedAt: performance.now() },
      {
        promptEvalCount: record.promptEvalCount,
        promptCachedCount: record.promptCachedCount,
        evalCount: plan.evalCount,
        tokensPerSecond,
      },
    ),
  });

  if (request.stream === false) {
    return sendWhole(res, request.model, plan, scripted, tokensPerSecond, doneObject);
  }
  await streamReply({ res, model: request.model, plan, tokensPerSecond, fault: scripted.fault, doneObject });
}

/** `stream:false`: the whole message and the metrics in one JSON object, after generation time. */
async function sendWhole(
  res: ServerResponse,
  model: string,
  plan: ReplyPlan,
  scripted: ScriptedReply,
  tokensPerSecond: number,
  doneObject: () => Record<string, unknown>,
): Promise<void> {
  const fault = scripted.fault;
  // Nothing is sent before the end, so a hang is simply no answer until the client gives up.
  if (fault?.kind === 'hang') return waitForClose(res);
  const generationMs = Number.isFinite(tokensPerSecond) ? (plan.evalCount * 1000) / tokensPerSecond : 0;
  if (!(await waitUnlessClosed(res, generationMs)) || isClosed(res)) return;
  // Ollama collects the stream; an error in it becomes a 500 with the error, a missing done a partial reply.
  if (fault?.kind === 'error-line') return sendError(res, 500, fault.error);
  const chunks = fault?.kind === 'no-done' ? plan.chunks.slice(0, fault.afterChunks) : plan.chunks;
  const message = mergeChunks(chunks);
  if (fault?.kind === 'no-done') {
    return sendJson(res, 200, {
      model,
      created_at: new Date().toISOString(),
      message,
      done: false,
    });
  }
  sendJson(res, 200, { ...doneObject(), message });
}

/** Joins streamed chunks into the one message a non-streaming reply carries. */
function mergeChunks(chunks: readonly ChunkMessage[]): ChunkMessage {
  const merged: ChunkMessage = { role: 'assistant', content: '' };
  let thinking = '';
  for (const chunk of chunks) {
    merged.content += chunk.content;
    thinking += chunk.thinking ?? '';
    if (chunk.tool_calls) merged.tool_calls = [...(merged.tool_calls ?? []), ...chunk.tool_calls];
  }
  if (thinking !== '') merged.thinking = thinking;
  return merged;
}
