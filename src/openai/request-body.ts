import type { ChatRequest, ToolCall, WireMessage } from '../backend/interfaces.js';

/** One message as the chat-completions API takes it. */
export interface OpenAiMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | OpenAiContentPart[];
  tool_calls?: OpenAiToolCall[];
  tool_call_id?: string;
}

export type OpenAiContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } };

/** A call in an assistant message: `arguments` is a JSON string, not an object. */
export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Ollama options with a chat-completions field of the same meaning; the rest (num_ctx, …) a request cannot set. */
const OPTION_FIELDS: Record<string, string> = {
  temperature: 'temperature',
  top_p: 'top_p',
  // Not OpenAI's, but vLLM, SGLang, llama-server and LM Studio take them as sampling extras.
  top_k: 'top_k',
  min_p: 'min_p',
  seed: 'seed',
  stop: 'stop',
  num_predict: 'max_tokens',
  presence_penalty: 'presence_penalty',
  frequency_penalty: 'frequency_penalty',
};

/** How the body is shaped for the engine at hand. */
export interface BodyOptions {
  /** The engine turns thinking off by `chat_template_kwargs.enable_thinking` (vLLM, SGLang, llama-server). */
  thinkingSwitch: boolean;
}

/**
 * ochat's request as a streamed `/v1/chat/completions` body, asking for the server's counts
 * (`stream_options.include_usage`: without it no engine sends `usage` in a stream).
 */
export function toChatCompletionBody(request: ChatRequest, options: BodyOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: toOpenAiMessages(request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  for (const [name, value] of Object.entries(request.options ?? {})) {
    const field = OPTION_FIELDS[name];
    // num_predict -1 (no limit) has no max_tokens equivalent but leaving it out.
    if (field && value !== undefined && !(name === 'num_predict' && Number(value) < 0)) body[field] = value;
  }
  if (request.tools?.length) body.tools = request.tools;
  // The summarizer continuing the chat sends its tools (for the KV cache) but may call none.
  if (request.tools?.length && request.tool_choice) body.tool_choice = request.tool_choice;
  if (request.think !== undefined && options.thinkingSwitch)
    body.chat_template_kwargs = { enable_thinking: request.think !== false };
  if (typeof request.think === 'string') body.reasoning_effort = request.think;
  return body;
}

/**
 * The messages in chat-completions form. Tool results carry the id of the call they answer:
 * ochat runs a reply's calls in order and records one result for each (tools/tool-loop.ts, and a
 * "not run" result for calls a session was closed on), so the k-th result after an assistant
 * message answers its k-th call. A result whose call is not in the request (compacted away) goes
 * as a user message: strict servers refuse a tool message that answers no call.
 */
export function toOpenAiMessages(messages: readonly WireMessage[]): OpenAiMessage[] {
  const out: OpenAiMessage[] = [];
  let pending: { id: string; name: string }[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const call = pending.shift();
      if (call) out.push({ role: 'tool', tool_call_id: call.id, content: message.content });
      else
        out.push({
          role: 'user',
          content: `Result of the tool ${message.tool_name ?? 'call'}:\n${message.content}`,
        });
      return;
    }
    pending = [];
    if (message.role === 'assistant' && message.tool_calls?.length) {
      const calls = message.tool_calls.map((call, k) => toOpenAiToolCall(call, `call_${index}_${k}`));
      pending = calls.map((call) => ({ id: call.id, name: call.function.name }));
      out.push({ role: 'assistant', content: message.content, tool_calls: calls });
      return;
    }
    out.push({ role: message.role, content: withImages(message) });
  });
  return out;
}

function toOpenAiToolCall(call: ToolCall, fallbackId: string): OpenAiToolCall {
  return {
    id: call.id || fallbackId,
    type: 'function',
    function: { name: call.function.name, arguments: JSON.stringify(call.function.arguments ?? {}) },
  };
}

/** A user message's images as `image_url` parts with data URLs beside its text. */
function withImages(message: WireMessage): string | OpenAiContentPart[] {
  if (!message.images?.length) return message.content;
  return [
    { type: 'text', text: message.content },
    ...message.images.map(
      (data): OpenAiContentPart => ({
        type: 'image_url',
        image_url: { url: `data:${imageMediaType(data)};base64,${data}` },
      }),
    ),
  ];
}

/** The media type of base64 image data by its first bytes (PNG, JPEG or WebP: what attachments take). */
function imageMediaType(base64: string): string {
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}
