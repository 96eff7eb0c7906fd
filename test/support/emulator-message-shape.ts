import { base64Error } from './emulator-images.js';

/**
 * The type checks Ollama's `c.ShouldBindJSON(&api.ChatRequest)` makes on `messages`: Go's JSON
 * decoder refuses a value of the wrong type (HTTP 400 with its own wording), so a client that sends
 * back a malformed tool call is refused here as it would be there. `null` decodes to a zero value.
 */
export function messageShapeError(messages: readonly unknown[]): string | undefined {
  for (const message of messages) {
    if (message === null) continue;
    if (!isObject(message)) return unmarshalError(message, 'messages', 'api.Message');
    for (const field of ['role', 'content', 'thinking', 'tool_name'] as const) {
      const value = message[field];
      if (value !== undefined && value !== null && typeof value !== 'string') {
        return unmarshalError(value, `messages.${field}`, 'string', 'Message');
      }
    }
    const imagesError = imagesShapeError(message.images);
    if (imagesError) return imagesError;
    const calls = message.tool_calls;
    if (calls === undefined || calls === null) continue;
    if (!Array.isArray(calls))
      return unmarshalError(calls, 'messages.tool_calls', '[]api.ToolCall', 'Message');
    for (const call of calls) {
      if (call === null) continue;
      if (!isObject(call)) return unmarshalError(call, 'messages.tool_calls', 'api.ToolCall', 'Message');
      const fn = call.function;
      if (fn === undefined || fn === null) continue;
      if (!isObject(fn))
        return unmarshalError(fn, 'messages.tool_calls.function', 'api.ToolCallFunction', 'ToolCall');
      if (fn.name !== undefined && fn.name !== null && typeof fn.name !== 'string') {
        return unmarshalError(fn.name, 'messages.tool_calls.function.name', 'string', 'ToolCallFunction');
      }
      const args = fn.arguments;
      if (args !== undefined && args !== null && !isObject(args)) {
        return unmarshalError(
          args,
          'messages.tool_calls.function.arguments',
          'api.ToolCallFunctionArguments',
          'ToolCallFunction',
        );
      }
    }
  }
  return undefined;
}

/** `images` is `[]api.ImageData`: a list of base64 strings, each decoded as Go decodes `[]byte`. */
function imagesShapeError(images: unknown): string | undefined {
  if (images === undefined || images === null) return undefined;
  if (!Array.isArray(images)) return unmarshalError(images, 'messages.images', '[]api.ImageData', 'Message');
  for (const image of images) {
    if (image === null) continue;
    if (typeof image !== 'string')
      return unmarshalError(image, 'messages.images', 'api.ImageData', 'Message');
    const error = base64Error(image);
    if (error) return error;
  }
  return undefined;
}

/** Go's wording: `json: cannot unmarshal number into Go struct field ToolCallFunction.messages.tool_calls.function.name of type string`. */
function unmarshalError(value: unknown, field: string, goType: string, struct = 'ChatRequest'): string {
  return `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${struct}.${field} of type ${goType}`;
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value; // number, string, object
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
