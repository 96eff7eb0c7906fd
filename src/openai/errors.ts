import { BackendError, type BackendErrorOptions, type PartialReply } from '../backend/errors.js';
import { IdleTimeoutError } from '../ollama/idle-timeout.js';
import { describeNetworkFailure } from '../ollama/network-failure.js';
import { describeError } from '../text/describe-error.js';
import { oneLine } from '../text/shorten.js';
import { isRecord } from './engines.js';
import { OversizedEventError } from './sse-events.js';

/** Who failed, for the message: the server's name (`vLLM`) and where it is. */
export interface ServerContext {
  name: string;
  host: string;
  model?: string;
  partial?: PartialReply;
  /** The variable the API key was read from, when one was sent. */
  keyVariable?: string;
  /** The models the server has, for an unknown model's message. */
  models?: readonly string[];
}

/** An error status with the server's body, kept whole: its fields say why (`n_ctx`, `type`). */
export class ServerStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly text: string,
    readonly retryAfterMs?: number,
  ) {
    super(`HTTP ${status}`);
    this.name = 'ServerStatusError';
  }
}

/** An error object in the stream after a 200 (`data: {"error": …}`, or an `event: error`). */
export class StreamErrorEvent extends Error {
  constructor(readonly body: unknown) {
    super('error event');
    this.name = 'StreamErrorEvent';
  }
}

const MAX_MESSAGE = 300;

/** The server's own words of an error body: `{"error": {"message"}}`, `{"error": "…"}`, `{"message"}` or `{"detail"}`. */
export function serverMessage(body: unknown, text = ''): string {
  const error = isRecord(body) ? (body.error ?? body) : undefined;
  const said = isRecord(error)
    ? (error.message ?? error.detail ?? (isRecord(body) ? body.detail : undefined))
    : typeof error === 'string'
      ? error
      : undefined;
  const raw =
    typeof said === 'string' ? said : text.trim().startsWith('<') ? text.replace(/<[^>]*>/g, ' ') : text;
  return oneLine(raw.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' '), MAX_MESSAGE) || 'no reason given';
}

/**
 * The window a refusal for length names, or undefined when the error is no such refusal:
 * llama-server's `exceed_context_size_error` (with `n_ctx`), vLLM's "maximum context length is N
 * tokens" (and its "maximum model length of N"), SGLang's "maximum context length of N tokens" or
 * "context length (N tokens)", and LiteLLM passing any of them on. 0: a refusal that names no window.
 */
export function refusedWindow(body: unknown, message: string): number | undefined {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (error?.type === 'exceed_context_size_error') return typeof error.n_ctx === 'number' ? error.n_ctx : 0;
  const patterns = [
    /maximum context length is (\d+)/i,
    /maximum model length (?:of|is) (\d+)/i,
    /maximum context length of (\d+)/i,
    /context length \((\d+) tokens\)/i,
    /available context size \((\d+) tokens\)/i,
  ];
  for (const pattern of patterns) {
    const found = pattern.exec(message);
    if (found) return Number(found[1]);
  }
  return /context.?window.?exceeded|context length exceeded|too many tokens|prompt is too long/i.test(message)
    ? 0
    : undefined;
}

/** The server cannot use tools as asked: vLLM without a tool parser, llama-server without --jinja. */
function refusesTools(message: string): boolean {
  return /enable-auto-tool-choice|tool-call-parser|tools param requires|does not support tools|tool(s)? (are|is) not supported/i.test(
    message,
  );
}

/** Turns whatever a request failed with into one `BackendError` whose message names the server and says what to do. */
export function mapServerError(err: unknown, context: ServerContext): BackendError {
  if (err instanceof BackendError) return err;
  const options: BackendErrorOptions = { partial: context.partial, cause: err };
  const at = `${context.name} at ${context.host}`;
  if (err instanceof IdleTimeoutError) {
    const seconds = err.ms / 1000;
    const hint =
      'A long prompt can take the server a while before its first token: raise request_timeout_s in the config.';
    return new BackendError(
      'timeout',
      `${sentenceStart(at)} sent nothing for ${seconds} s. ${hint}`,
      hint,
      options,
    );
  }
  if (err instanceof OversizedEventError)
    return new BackendError(
      'stream',
      `${sentenceStart(at)} sent ${err.message}; the reply was stopped.`,
      undefined,
      options,
    );
  if (err instanceof ServerStatusError) return fromStatus(err, context, options);
  if (err instanceof StreamErrorEvent) {
    const message = serverMessage(err.body);
    const window = refusedWindow(err.body, message);
    if (window !== undefined) return contextExceeded(at, message, window, options);
    return new BackendError(
      'stream',
      `${sentenceStart(at)} stopped mid-reply: ${message}.`,
      'Press Enter to retry.',
      options,
    );
  }
  const name = err instanceof Error ? err.name : '';
  if (name === 'AbortError') return new BackendError('aborted', 'Request cancelled.', undefined, options);
  if (err instanceof TypeError && err.message === 'terminated')
    return new BackendError('stream', `The connection to ${at} closed mid-reply.`, undefined, options);
  const failure = describeNetworkFailure(err, context.host);
  if (failure) {
    const hint = 'Is the server running? Check --host (and --api if it is not what answers there).';
    return new BackendError('unreachable', `Cannot reach ${at} (${failure.reason}). ${hint}`, hint, options);
  }
  if (err instanceof SyntaxError)
    return new BackendError(
      'unexpected',
      `${sentenceStart(at)} sent something that is not JSON. Is it an OpenAI-compatible server? Check --host and --api.`,
      undefined,
      options,
    );
  return new BackendError(
    'unexpected',
    `Unexpected error talking to ${at}: ${describeError(err)}`,
    undefined,
    options,
  );
}

function fromStatus(
  err: ServerStatusError,
  context: ServerContext,
  options: BackendErrorOptions,
): BackendError {
  const at = `${context.name} at ${context.host}`;
  const message = serverMessage(err.body, err.text);
  const { status } = err;
  if (status === 401 || (status === 403 && !context.keyVariable)) {
    const hint = context.keyVariable
      ? `Check the key in ${context.keyVariable}.`
      : 'Set OCHAT_API_KEY (or OPENAI_API_KEY, or name another variable with api_key_env: in the config).';
    const what = context.keyVariable ? `refused the API key from ${context.keyVariable}` : 'wants an API key';
    return new BackendError(
      'http',
      `${sentenceStart(at)} ${what} (HTTP ${status}: ${message}). ${hint}`,
      hint,
      options,
    );
  }
  if (status === 403) {
    const hint = `Check the key in ${context.keyVariable}.`;
    return new BackendError(
      'http',
      `${sentenceStart(at)} refused the API key from ${context.keyVariable} (HTTP 403: ${message}). ${hint}`,
      hint,
      options,
    );
  }
  if (status === 429 || status === 503) {
    const what = status === 429 ? 'limits how often it is asked' : 'is busy or loading';
    return new BackendError(
      'busy',
      `${sentenceStart(at)} ${what} (HTTP ${status}: ${message}).`,
      'Try again in a moment.',
      {
        ...options,
        ...(err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}),
      },
    );
  }
  const window = refusedWindow(err.body, message);
  if (window !== undefined && (status === 400 || status === 413 || status === 500))
    return contextExceeded(at, message, window, options);
  if ((status === 404 || status === 400) && context.model && isUnknownModel(message, context.model)) {
    const served = context.models?.length ? ` It serves: ${context.models.join(', ')}.` : '';
    const hint = 'Choose one of its models with -m <name> or /model.';
    return new BackendError(
      'model-not-found',
      `${sentenceStart(at)} has no model '${context.model}'.${served} ${hint}`,
      hint,
      options,
    );
  }
  if (status === 400 && refusesTools(message))
    return new BackendError(
      'unsupported-capability',
      `${sentenceStart(at)} does not take tools: ${message}`,
      undefined,
      {
        ...options,
        capability: 'tools',
      },
    );
  return new BackendError(
    'http',
    `${sentenceStart(at)} answered HTTP ${status}: ${message}`,
    undefined,
    options,
  );
}

/** `the server at …` as the first words of a message (an engine's own name, `llama-server`, stays as it is). */
function sentenceStart(text: string): string {
  return text.startsWith('the ') ? `The ${text.slice(4)}` : text;
}

function contextExceeded(
  at: string,
  message: string,
  window: number,
  options: BackendErrorOptions,
): BackendError {
  return new BackendError(
    'context-exceeded',
    `${sentenceStart(at)} refused the prompt as too long: ${message}`,
    undefined,
    {
      ...options,
      ...(window > 0 ? { window } : {}),
    },
  );
}

/** A 404 (vLLM: "The model `x` does not exist.") or 400 (LiteLLM, llama-server's router) about the model asked for. */
function isUnknownModel(message: string, model: string): boolean {
  return (
    /model.*(does not exist|not found|not available|unknown|invalid model)/i.test(message) ||
    (/(does not exist|not found|no model)/i.test(message) && message.includes(model))
  );
}
