/** The server sent no byte for `ms` milliseconds: the request was ended (config `request_timeout_s`). */
export class IdleTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no byte received for ${ms} ms`);
    this.name = 'IdleTimeoutError';
  }
}

/**
 * A timer that ends a request when the server goes silent: armed when the request starts, re-armed
 * by `touch()` on every byte, stopped at the end. When it fires, `signal` aborts with an
 * `IdleTimeoutError` and the body `transform()` errors with it, so every reader sees the same reason.
 */
export class IdleWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private body: TransformStreamDefaultController<Uint8Array> | undefined;

  constructor(private readonly ms: number) {
    this.touch();
  }

  /** Aborts with an `IdleTimeoutError` when the watch fires. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the server was silent for too long. */
  get fired(): boolean {
    return this.controller.signal.aborted;
  }

  /** Something arrived: the silence starts over. */
  touch(): void {
    if (this.fired) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), this.ms);
    this.timer.unref();
  }

  /** The request is over, one way or another. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Passes the body through, re-arming on each chunk and stopping at its end. */
  transform(): TransformStream<Uint8Array, Uint8Array> {
    return new TransformStream({
      start: (controller) => {
        this.body = controller;
      },
      transform: (chunk, controller) => {
        this.touch();
        controller.enqueue(chunk);
      },
      flush: () => this.stop(),
    });
  }

  private fire(): void {
    const reason = new IdleTimeoutError(this.ms);
    this.controller.abort(reason);
    try {
      this.body?.error(reason);
    } catch {
      // The body had already ended.
    }
  }
}
