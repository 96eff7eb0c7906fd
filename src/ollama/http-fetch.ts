import type * as Http from 'node:http';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { nodeBuiltin } from '../platform/node-builtin.js';
import { type FetchLike, WireResponse } from './wire-response.js';

// Required, not imported: on Node 22 the ESM facade of node:http reads every export, and its lazy
// `WebSocket` export loads undici, the very cost this module exists to avoid.
const loadHttp = (protocol: string): typeof Http | undefined =>
  protocol === 'http:'
    ? nodeBuiltin<typeof Http>('node:http')
    : protocol === 'https:'
      ? nodeBuiltin<typeof Http>('node:https')
      : undefined;

/**
 * A fetch over node:http/https, for the npm client's `fetch` option: Node's own fetch is undici,
 * whose loading alone costs more than the rest of a one-shot's start. It keeps fetch's contract where ochat relies on it: an abort rejects (or ends the
 * body) with `signal.reason`; a connection that cannot be made rejects with
 * `TypeError('fetch failed')` whose `cause` is Node's error (its `code`; an AggregateError when
 * several addresses were tried, e.g. localhost's ::1 and 127.0.0.1); a body cut off midway fails
 * with `TypeError('terminated')`. Every port is allowed (fetch refuses some, e.g. 6000).
 */
export const httpFetch: FetchLike = async (input, init = {}) => {
  const url = new URL(input);
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const request = loadHttp(url.protocol)?.request;
  if (!request)
    throw new TypeError('fetch failed', { cause: new Error(`unsupported protocol ${url.protocol}`) });
  const body = init.body;
  const options: RequestOptions = {
    method: init.method ?? 'GET',
    headers:
      body === undefined ? init.headers : { ...init.headers, 'Content-Length': Buffer.byteLength(body) },
  };
  return new Promise((resolve, reject) => {
    let response: IncomingMessage | undefined;
    let req: ClientRequest;
    const abort = () => {
      const reason: unknown = signal?.reason;
      (response ?? req).destroy(reason instanceof Error ? reason : undefined);
      reject(reason);
    };
    const send = (fresh: boolean) => {
      // A retry takes a connection of its own, never another idle one of the pool.
      req = request(url, fresh ? { ...options, agent: false } : options, (res) => {
        response = res;
        resolve(
          new WireResponse(
            responseChunks(res, signal, () => signal?.removeEventListener('abort', abort)),
            res.statusCode ?? 0,
            res.statusMessage ?? '',
            res.headers,
          ),
        );
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as this request went out (llama-server ends
        // idle ones after 5 s, as Node's pool does): nothing was answered, so it is sent again once.
        if (!fresh && !response && !signal?.aborted && req.reusedSocket && error.code === 'ECONNRESET') {
          send(true);
          return;
        }
        signal?.removeEventListener('abort', abort);
        reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
      });
      req.end(body);
    };
    send(false);
    signal?.addEventListener('abort', abort, { once: true });
  });
};

/** The body's chunks; an abort ends them with the signal's reason, a lost connection as fetch's "terminated". */
async function* responseChunks(
  res: IncomingMessage,
  signal: AbortSignal | undefined,
  done: () => void,
): AsyncIterable<Uint8Array> {
  try {
    for await (const chunk of res) yield chunk as Uint8Array;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new TypeError('terminated', { cause: error });
  } finally {
    done();
    // A reader that stops early (or an abort) must not leave the socket streaming.
    if (!res.complete) res.destroy();
  }
}
