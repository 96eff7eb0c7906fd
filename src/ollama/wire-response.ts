/**
 * The part of fetch's `Response` that ochat's transport and the npm client read, over any async
 * source of bytes. Built without `Response`, `Headers` or web streams: touching those globals loads
 * undici, which costs more start-up time than the rest of a one-shot.
 */

/** The request fields ochat's transport passes on (what the npm client sends). */
export interface WireRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal | null;
}

/** What the transport reads of a response; fetch's `Response` fits it too (tests hand in real ones). */
export interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  readonly body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** A body's chunks: Node's web `ReadableStream` is async-iterable too, though its type does not say so. */
export function bodyChunks(
  body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
): AsyncIterable<Uint8Array> {
  return body as AsyncIterable<Uint8Array>;
}

/** A fetch-shaped function: the real one (tests), or `httpFetch` over node:http. */
export type FetchLike = (input: string, init?: WireRequestInit) => Promise<ResponseLike>;

/** A response body the npm client reads with `getReader()`, and ochat with `for await`. */
export class WireBody implements AsyncIterable<Uint8Array> {
  private used = false;

  constructor(private readonly source: AsyncIterable<Uint8Array>) {}

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    if (this.used) throw new TypeError('the response body was already read');
    this.used = true;
    return this.source[Symbol.asyncIterator]();
  }

  /** The one reader method set the npm client uses (`read`, `releaseLock`), plus `cancel`. */
  getReader() {
    const chunks = this[Symbol.asyncIterator]();
    return {
      read: async (): Promise<{ done: true; value: undefined } | { done: false; value: Uint8Array }> => {
        const next = await chunks.next();
        return next.done ? { done: true, value: undefined } : { done: false, value: next.value };
      },
      releaseLock: () => {},
      cancel: async () => {
        await chunks.return?.();
      },
    };
  }
}

/** A `Response` look-alike: status, headers by name (any case), and a body read once. */
export class WireResponse implements ResponseLike {
  readonly body: WireBody | null;
  private readonly headerValues: Map<string, string>;

  constructor(
    body: AsyncIterable<Uint8Array> | null,
    readonly status: number,
    readonly statusText: string,
    headers: Record<string, string | string[] | undefined> = {},
  ) {
    this.body = body ? new WireBody(body) : null;
    this.headerValues = new Map();
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) this.headerValues.set(name.toLowerCase(), String(value));
    }
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  readonly headers = {
    get: (name: string): string | null => this.headerValues.get(name.toLowerCase()) ?? null,
  };

  async text(): Promise<string> {
    if (!this.body) return '';
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of this.body) text += decoder.decode(chunk, { stream: true });
    return text + decoder.decode();
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

/** A body with one chunk of `text`. */
export async function* textChunks(text: string): AsyncIterable<Uint8Array> {
  yield new TextEncoder().encode(text);
}
