import type { FetchLike, JSONRPCMessage } from '@modelcontextprotocol/client';
import { AwaitedAnswers, BoundedLines, MAX_MESSAGE_BYTES, overLimitError } from './bounded-read-buffer.js';

/**
 * The fetch of the MCP HTTP transports (Streamable HTTP and the older SSE), holding each message a
 * server sends to {@link MAX_MESSAGE_BYTES} as the stdio transport does: the SDK reads an HTTP
 * answer whole, however large. An answer over the limit becomes the same error answer for its
 * request, and the connection stays. One per transport: the older SSE transport's answers arrive
 * on its GET stream, not on the POST that asked.
 */
export function boundedFetch(maxBytes = MAX_MESSAGE_BYTES, base: FetchLike = fetch): FetchLike {
  const awaited = new AwaitedAnswers();
  return async (url, init) => {
    const sent = messagesIn(init?.body);
    for (const message of sent) awaited.sent(message);
    const response = await base(url, init);
    if (!response.ok || !response.body) return response;
    const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type === 'text/event-stream') {
      const body = response.body.pipeThrough(boundedEvents(awaited, maxBytes));
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    if (type === 'application/json') return boundedJson(response, sent, awaited, maxBytes);
    return response;
  };
}

/** The JSON-RPC messages of a request's body (the transports send a string), none if it holds none. */
function messagesIn(body: unknown): JSONRPCMessage[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as JSONRPCMessage | JSONRPCMessage[];
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [];
  }
}

/** A JSON answer to the requests `sent`, read to at most `maxBytes`; over that, their error answers instead. */
async function boundedJson(
  response: Response,
  sent: JSONRPCMessage[],
  awaited: AwaitedAnswers,
  maxBytes: number,
): Promise<Response> {
  const ids = sent.flatMap((message) =>
    'method' in message && 'id' in message && message.id !== undefined ? [message.id] : [],
  );
  for (const id of ids) awaited.answered(id);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes <= maxBytes) chunks.push(value);
    // Read to the end all the same, holding none of it: the error says how large it was.
    else chunks.length = 0;
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const init = { status: response.status, statusText: response.statusText, headers };
  if (bytes <= maxBytes) return new Response(Buffer.concat(chunks), init);
  const errors = ids.map((id) => overLimitError(id, bytes, maxBytes));
  return new Response(JSON.stringify(errors.length === 1 ? errors[0] : errors), init);
}

/**
 * An SSE stream passed on line by line, each line at most `maxBytes`: a `data:` line over that is
 * dropped as it arrives and, when it answered a request of ours, replaced by that request's error
 * answer. The SDK's servers send one message per `data:` line.
 */
function boundedEvents(awaited: AwaitedAnswers, maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  const lines = new BoundedLines(maxBytes);
  const newline = Buffer.from('\n');
  const pass = (controller: TransformStreamDefaultController<Uint8Array>, last: boolean) => {
    for (let line = lines.shift(); line !== undefined; line = lines.shift()) {
      if (Buffer.isBuffer(line)) {
        if (awaited.waiting) noteAnswer(line, awaited);
        controller.enqueue(line);
      } else {
        const answer = awaited.overLimitAnswer(line, maxBytes);
        if (!answer) continue;
        controller.enqueue(Buffer.from(`data: ${JSON.stringify(answer)}`));
      }
      if (!last) controller.enqueue(newline);
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      lines.append(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      pass(controller, false);
    },
    flush(controller) {
      // An unfinished last line is passed on as it came, without a newline it did not have.
      lines.end();
      pass(controller, true);
    },
  });
}

/** Notes the answer a `data:` line carries, so that a later dropped one is matched to the right request. */
function noteAnswer(line: Buffer, awaited: AwaitedAnswers): void {
  if (!line.subarray(0, 5).equals(Buffer.from('data:'))) return;
  try {
    awaited.received(JSON.parse(line.subarray(5).toString('utf8')) as JSONRPCMessage);
  } catch {
    // Not JSON: the SDK reports it; nothing is answered by it.
  }
}
