import { describeError } from '../text/describe-error.js';
import { oneLine } from '../text/shorten.js';
import {
  AbortedError,
  type Capability,
  ContextExceededError,
  IncompleteStreamError,
  ModelNotFoundError,
  OllamaError,
  type OllamaErrorOptions,
  OllamaHttpError,
  OversizedStreamLineError,
  type PartialReply,
  ServerSilentError,
  ServerUnreachableError,
  StreamError,
  UnsupportedCapabilityError,
} from './error-types.js';
import { IdleTimeoutError } from './idle-timeout.js';
import { OversizedLineError } from './ndjson-objects.js';
import { describeNetworkFailure } from './network-failure.js';

/** Where a failure happened, for the message; `installed` lets a 404 list the models there are. */
export interface ErrorContext {
  host: string;
  model?: string;
  installed?: string[];
  partial?: PartialReply;
}

/** What the npm client's `ResponseError` (HTTP status before the first byte) looks like. */
interface ResponseErrorShape {
  name: 'ResponseError';
  error?: string;
  message: string;
  status_code: number;
}

/** The npm client's error when a stream ends without `done`. */
const NO_DONE_MESSAGE = 'Did not receive done or success response in stream.';

/**
 * Turns anything the npm client, fetch or the stream threw into one `OllamaError` whose message
 * names the host or model and the fix. Never puts a stack trace into the message.
 */
export function mapOllamaError(err: unknown, context: ErrorContext): OllamaError {
  if (err instanceof OllamaError) return err;
  const options: OllamaErrorOptions = { partial: context.partial, cause: err };
  const name = err instanceof Error || err instanceof DOMException ? err.name : '';
  const message = serverLine(describeError(err));

  if (err instanceof IdleTimeoutError) return new ServerSilentError(context.host, err.ms / 1000, options);
  if (err instanceof OversizedLineError) {
    return new OversizedStreamLineError(context.host, err.maxChars / (1024 * 1024), options);
  }
  if (name === 'AbortError') return new AbortedError(options);
  if (isResponseError(err))
    return fromHttpStatus(err.status_code, serverLine(String(err.error ?? err.message)), context, options);
  if (err instanceof TypeError && message === 'terminated') {
    // undici's word for "the socket closed while the body was still streaming".
    return new StreamError(`the connection to ${context.host} closed`, options);
  }
  const failure = describeNetworkFailure(err, context.host);
  if (failure !== undefined) {
    // node:http reports a connection lost mid-body by the same codes as one lost before it.
    if (hasStreamed(context.partial)) return new StreamError(`${failure.reason} (${context.host})`, options);
    return new ServerUnreachableError(context.host, { ...options, ...failure });
  }
  if (message === NO_DONE_MESSAGE) return new IncompleteStreamError(options);
  if (err instanceof SyntaxError) {
    return new OllamaError(
      'unexpected',
      `The server at ${context.host} sent a reply that is not valid JSON. Is it an Ollama server? Check --host / OLLAMA_HOST.`,
      'Check --host / OLLAMA_HOST.',
      options,
    );
  }
  // The npm client throws a plain Error for an {"error": …} line after streaming began.
  if (name === 'Error' && isContextExceeded(message)) return new ContextExceededError(message, options);
  if (name === 'Error') return new StreamError(message, options);
  return new OllamaError(
    'unexpected',
    `Unexpected error talking to Ollama at ${context.host}: ${message}`,
    undefined,
    options,
  );
}

function fromHttpStatus(
  status: number,
  serverMessage: string,
  context: ErrorContext,
  options: OllamaErrorOptions,
): OllamaError {
  if (status === 404 && /\bmodel\b.*\bnot found\b/i.test(serverMessage)) {
    const model =
      context.model ?? /model ['"]?([^'"]+?)['"]? not found/i.exec(serverMessage)?.[1] ?? 'unknown';
    return new ModelNotFoundError(model, context.installed, { ...options, host: context.host });
  }
  if (isContextExceeded(serverMessage)) return new ContextExceededError(serverMessage, options);
  const unsupported = /does not support (tools|thinking)\b/i.exec(serverMessage);
  if (status === 400 && unsupported) {
    const model = context.model ?? serverMessage.split(/\s+does not support/i)[0].replace(/^["']|["']$/g, '');
    return new UnsupportedCapabilityError(model, unsupported[1].toLowerCase() as Capability, options);
  }
  return new OllamaHttpError(status, serverMessage, options);
}

/**
 * The refusal of a prompt over num_ctx under `truncate: false`: Ollama's own "the input length
 * exceeds the context length", or the llama.cpp runner's "exceeds the available context size"
 * that some versions pass through.
 */
export function isContextExceeded(serverMessage: string): boolean {
  return /input length exceeds the (maximum )?context length|exceeds the available context size|exceed_context_size_error/i.test(
    serverMessage,
  );
}

function hasStreamed(partial: PartialReply | undefined): boolean {
  return partial !== undefined && (partial.content !== '' || partial.thinking !== '');
}

function isResponseError(err: unknown): err is ResponseErrorShape {
  return (
    err instanceof Error &&
    err.name === 'ResponseError' &&
    typeof (err as Partial<ResponseErrorShape>).status_code === 'number'
  );
}

const MAX_MESSAGE = 300;

/** Server text as one short line: no newlines, no control characters, capped. */
function serverLine(text: string): string {
  return oneLine(text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' '), MAX_MESSAGE);
}
