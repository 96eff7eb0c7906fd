/** Which way a request to the backend failed. */
export type BackendErrorKind =
  | 'unreachable'
  | 'model-not-found'
  | 'http'
  | 'unsupported-capability'
  | 'stream'
  | 'incomplete-stream'
  | 'timeout'
  | 'aborted'
  /** `truncate: false` and the prompt does not fit `num_ctx`: the server refused it. */
  | 'context-exceeded'
  /** A download (`/api/pull`) ended with an error. */
  | 'pull-failed'
  /** The server is busy or rate-limits (429, 503): worth trying again after a pause. */
  | 'busy'
  /** The server has no such feature (an OpenAI-compatible server has no pull, ps, load or unload). */
  | 'unsupported-by-server'
  | 'unexpected';

/** A model feature ochat asked for and the model lacks. */
export type Capability = 'tools' | 'thinking';

/** What had streamed before a chat failed, so the caller can keep it. */
export interface PartialReply {
  content: string;
  thinking: string;
}

/** Extras every `BackendError` may carry. */
export interface BackendErrorOptions {
  partial?: PartialReply;
  /** Kind `unsupported-capability`: the capability the model lacks. */
  capability?: Capability;
  /** The original error, for debugging; never shown in the message. */
  cause?: unknown;
  /** Kind `context-exceeded`: the window the server said it has, when its refusal names it. */
  window?: number;
  /** Kind `http`: the server is busy (429, 503) and asked to be tried again, after this many ms if it said. */
  retryAfterMs?: number;
}

/**
 * Every failure of a `ChatBackend`. `message` is one line a user can act on; `hint` is its
 * actionable part alone, for UIs that show it separately. A backend subclasses it per kind.
 */
export class BackendError extends Error {
  readonly kind: BackendErrorKind;
  readonly partial?: PartialReply;
  readonly capability?: Capability;
  readonly hint?: string;
  readonly window?: number;
  readonly retryAfterMs?: number;

  constructor(kind: BackendErrorKind, message: string, hint?: string, options: BackendErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BackendError';
    this.kind = kind;
    this.hint = hint;
    if (options.partial) this.partial = options.partial;
    if (options.capability) this.capability = options.capability;
    if (options.window !== undefined) this.window = options.window;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}
