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
 * `IdleTimeoutError` (the fetch given that signal ends the request and its body), and `watch()`
 * turns whatever the body then fails with into that same reason, so every reader sees it.
 */
export class IdleWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

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
  async *watch(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    try {
      for await (const chunk of chunks) {
        this.touch();
        yield chunk;
      }
    } catch (error) {
      throw this.fired ? this.signal.reason : error;
    } finally {
      this.stop();
    }
  }

  private fire(): void {
    this.controller.abort(new IdleTimeoutError(this.ms));
  }
}
