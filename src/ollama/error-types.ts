import {
  BackendError,
  type BackendErrorKind,
  type BackendErrorOptions,
  type Capability,
} from '../backend/errors.js';
import { DEFAULT_HOST } from '../platform/host.js';
import { suggest } from '../text/suggest.js';

export type { Capability, PartialReply } from '../backend/errors.js';

/** Which way a request to Ollama failed; one subclass of `OllamaError` per kind. */
export type OllamaErrorKind = BackendErrorKind;

/** Extras every `OllamaError` may carry. */
export type OllamaErrorOptions = BackendErrorOptions;

/** Every failure of the Ollama layer: a `BackendError` with Ollama's hints. */
export class OllamaError extends BackendError {
  constructor(kind: OllamaErrorKind, message: string, hint?: string, options: OllamaErrorOptions = {}) {
    super(kind, message, hint, options);
    this.name = 'OllamaError';
  }
}

const START_HINT = 'Start it with `ollama serve` (or set --host / OLLAMA_HOST).';

/**
 * No answer from the host: server down, wrong host or port, name lookup failed, or a connection
 * that could not be set up (TLS, not HTTP). `reason` says what happened; `hint` what to do, by
 * default start Ollama.
 */
export class ServerUnreachableError extends OllamaError {
  readonly host: string;

  constructor(host: string, options: OllamaErrorOptions & { reason?: string; hint?: string } = {}) {
    const reason = options.reason ? ` (${options.reason})` : '';
    const hint = options.hint ?? START_HINT;
    const advice = options.hint ? hint : `Is it running? ${hint}`;
    super('unreachable', `Cannot reach Ollama at ${host}${reason}. ${advice}`, hint, options);
    this.name = 'ServerUnreachableError';
    this.host = host;
  }
}

const LISTED_MODELS = 8;

/** The server does not have the model. `installed` is undefined when the list could not be fetched. */
export class ModelNotFoundError extends OllamaError {
  readonly model: string;
  readonly installed?: string[];

  constructor(model: string, installed?: string[], options: OllamaErrorOptions & { host?: string } = {}) {
    const hostPrefix = options.host && options.host !== DEFAULT_HOST ? `OLLAMA_HOST=${options.host} ` : '';
    const hint = `Download it with \`${hostPrefix}ollama pull ${model}\`.`;
    super(
      'model-not-found',
      `Model '${model}' is not installed.${describeInstalled(model, installed)} ${hint}`,
      hint,
      options,
    );
    this.name = 'ModelNotFoundError';
    this.model = model;
    this.installed = installed;
  }
}

function describeInstalled(model: string, installed: string[] | undefined): string {
  if (installed === undefined) return '';
  if (installed.length === 0) return ' No models are installed.';
  const base = model.split(':')[0];
  // The same model under another tag, else the nearest name (`m11` → `m1`), as for commands.
  const bases = installed.map((name) => name.split(':')[0]);
  const near = suggest(base, bases);
  const similar =
    installed.find((name) => name.split(':')[0] === base) ?? (near && installed[bases.indexOf(near)]);
  const shown = installed.slice(0, LISTED_MODELS).join(', ');
  const more = installed.length > LISTED_MODELS ? ` (+${installed.length - LISTED_MODELS} more)` : '';
  return `${similar ? ` Did you mean '${similar}'?` : ''} Installed: ${shown}${more}.`;
}

/** The server answered with an HTTP error this layer has no more specific kind for. */
export class OllamaHttpError extends OllamaError {
  readonly status: number;
  readonly serverMessage: string;

  constructor(status: number, serverMessage: string, options: OllamaErrorOptions = {}) {
    const hint =
      status >= 500
        ? 'See the Ollama server log for details.'
        : status === 401 || status === 403
          ? 'Check access to the server (proxy, credentials).'
          : undefined;
    const ending = hint ? `${/[.!?]$/.test(serverMessage) ? '' : '.'} ${hint}` : '';
    super('http', `Ollama answered HTTP ${status}: ${serverMessage}${ending}`, hint, options);
    this.name = 'OllamaHttpError';
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

/** The server refused the request because the model lacks a capability (400 "does not support …"). */
export class UnsupportedCapabilityError extends OllamaError {
  readonly model: string;
  declare readonly capability: Capability;

  constructor(model: string, capability: Capability, options: OllamaErrorOptions = {}) {
    const hint =
      capability === 'tools'
        ? 'Use a model with tool support, or turn tools off for this chat.'
        : 'Turn thinking off, or use a thinking model.';
    super('unsupported-capability', `Model '${model}' does not support ${capability}. ${hint}`, hint, {
      ...options,
      capability,
    });
    this.name = 'UnsupportedCapabilityError';
    this.model = model;
  }
}

const RETRY_HINT = 'Try again; if it keeps happening, see the Ollama server log.';

/** The server reported an error after the reply had started streaming. */
export class StreamError extends OllamaError {
  readonly serverMessage: string;

  constructor(serverMessage: string, options: OllamaErrorOptions = {}) {
    const text = serverMessage.replace(/[.\s]+$/, '') || 'unknown error';
    super('stream', `Ollama stopped mid-reply: ${text}. ${RETRY_HINT}`, RETRY_HINT, options);
    this.name = 'StreamError';
    this.serverMessage = serverMessage;
  }
}

/** The stream ended without its final `done` chunk. */
export class IncompleteStreamError extends OllamaError {
  constructor(options: OllamaErrorOptions = {}) {
    super(
      'incomplete-stream',
      `Ollama's reply ended before its final message. ${RETRY_HINT}`,
      RETRY_HINT,
      options,
    );
    this.name = 'IncompleteStreamError';
  }
}

/**
 * A status-200 body that is not Ollama's NDJSON stream (an HTML page, plain text: a proxy, a web
 * server, another service on that port): said once, with what it was, instead of "ended early".
 */
export class NotOllamaStreamError extends OllamaError {
  constructor(
    host: string,
    what: { contentType: string | null; firstBytes: string },
    options: OllamaErrorOptions = {},
  ) {
    const type = what.contentType ? `content type ${what.contentType}` : 'no content type';
    super(
      'unexpected',
      `The server at ${host} answered with something that is not Ollama's stream (${type}, starting "${what.firstBytes}"). Is it an Ollama server? Check --host / OLLAMA_HOST.`,
      'Check --host / OLLAMA_HOST.',
      options,
    );
    this.name = 'NotOllamaStreamError';
  }
}

/** The reply grew past the most ochat keeps: the rest was discarded and the request stopped. */
export class ReplyTooLongError extends OllamaError {
  constructor(maxChars: number, options: OllamaErrorOptions = {}) {
    const size = `${(maxChars / 1024 / 1024).toFixed(0)} M characters`;
    super(
      'stream',
      `The reply grew past ${size}, the most ochat keeps of one reply: the rest was discarded and the request stopped.`,
      undefined,
      options,
    );
    this.name = 'ReplyTooLongError';
  }
}

/** The caller cancelled the request. */
export class AbortedError extends OllamaError {
  constructor(options: OllamaErrorOptions = {}) {
    super('aborted', 'Request cancelled.', undefined, options);
    this.name = 'AbortedError';
  }
}

/** The server sent no byte for too long (config `request_timeout_s`). */
export class ServerSilentError extends OllamaError {
  readonly seconds: number;

  constructor(host: string, seconds: number, options: OllamaErrorOptions = {}) {
    const hint = 'If the model is still loading, try again, or raise request_timeout_s in the config.';
    super(
      'timeout',
      `Ollama at ${host} sent nothing for ${seconds} s, so the request was stopped. ${hint}`,
      hint,
      options,
    );
    this.name = 'ServerSilentError';
    this.seconds = seconds;
  }
}

/** A stream line grew past the cap without a line break: not Ollama, or something between is broken. */
export class OversizedStreamLineError extends OllamaError {
  constructor(host: string, maxMegabytes: number, options: OllamaErrorOptions = {}) {
    const hint = 'Check --host / OLLAMA_HOST, and any proxy in between.';
    super(
      'stream',
      `The server at ${host} sent a line of more than ${maxMegabytes} MB without a line break, so the reply was stopped. Is it an Ollama server? ${hint}`,
      hint,
      options,
    );
    this.name = 'OversizedStreamLineError';
  }
}

/** `truncate: false` and a prompt over num_ctx: the server refused it instead of cutting it. */
export class ContextExceededError extends OllamaError {
  readonly serverMessage: string;

  constructor(serverMessage: string, options: OllamaErrorOptions = {}) {
    const hint = 'Compact the conversation (/compact), or give the model a larger window (/set num_ctx).';
    super(
      'context-exceeded',
      `The prompt does not fit num_ctx (Ollama: ${serverMessage}). ${hint}`,
      hint,
      options,
    );
    this.name = 'ContextExceededError';
    this.serverMessage = serverMessage;
  }
}

/** A pull ended with an `{"error"}` line (unknown name, disk full, network) or before `success`. */
export class PullFailedError extends OllamaError {
  readonly model: string;
  readonly serverMessage: string;

  constructor(model: string, serverMessage: string, options: OllamaErrorOptions = {}) {
    super('pull-failed', `Cannot pull ${model}: ${serverMessage}`, undefined, options);
    this.name = 'PullFailedError';
    this.model = model;
    this.serverMessage = serverMessage;
  }
}
