import { DEFAULT_HOST } from './host.js';

/** Which way a request to Ollama failed; one subclass of `OllamaError` per kind. */
export type OllamaErrorKind =
  | 'unreachable'
  | 'model-not-found'
  | 'http'
  | 'unsupported-capability'
  | 'stream'
  | 'incomplete-stream'
  | 'aborted'
  | 'unexpected';

/** What had streamed before a chat failed, so the caller can keep it. */
export interface PartialReply {
  content: string;
  thinking: string;
}

/** Extras every `OllamaError` may carry. */
export interface OllamaErrorOptions {
  partial?: PartialReply;
  /** The original error, for debugging; never shown in the message. */
  cause?: unknown;
}

/**
 * Every failure of the Ollama layer. `message` is one line a user can act on; `hint` is its
 * actionable part alone, for UIs that show it separately.
 */
export class OllamaError extends Error {
  readonly kind: OllamaErrorKind;
  readonly partial?: PartialReply;
  readonly hint?: string;

  constructor(kind: OllamaErrorKind, message: string, hint?: string, options: OllamaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OllamaError';
    this.kind = kind;
    this.hint = hint;
    if (options.partial) this.partial = options.partial;
  }
}

const START_HINT = 'Start it with `ollama serve` (or set --host / OLLAMA_HOST).';

/** Nothing answers at the host: server down, wrong host or port, name lookup failed. */
export class ServerUnreachableError extends OllamaError {
  readonly host: string;

  constructor(host: string, options: OllamaErrorOptions & { reason?: string } = {}) {
    const reason = options.reason ? ` (${options.reason})` : '';
    super(
      'unreachable',
      `Cannot reach Ollama at ${host}${reason}. Is it running? ${START_HINT}`,
      START_HINT,
      options,
    );
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
  const similar = installed.find((name) => name.split(':')[0] === base);
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

/** A model feature ochat asked for and the model lacks. */
export type Capability = 'tools' | 'thinking';

/** The server refused the request because the model lacks a capability (400 "does not support …"). */
export class UnsupportedCapabilityError extends OllamaError {
  readonly model: string;
  readonly capability: Capability;

  constructor(model: string, capability: Capability, options: OllamaErrorOptions = {}) {
    const hint =
      capability === 'tools'
        ? 'Use a model with tool support, or turn tools off for this chat.'
        : 'Turn thinking off, or use a thinking model.';
    super(
      'unsupported-capability',
      `Model '${model}' does not support ${capability}. ${hint}`,
      hint,
      options,
    );
    this.name = 'UnsupportedCapabilityError';
    this.model = model;
    this.capability = capability;
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

/** The caller cancelled the request (or its timeout signal fired). */
export class AbortedError extends OllamaError {
  constructor(options: OllamaErrorOptions & { timedOut?: boolean } = {}) {
    super(
      'aborted',
      options.timedOut ? 'Request to Ollama timed out.' : 'Request cancelled.',
      undefined,
      options,
    );
    this.name = 'AbortedError';
  }
}
