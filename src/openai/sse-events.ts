import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** The longest one server-sent event may be before the stream is given up as broken. */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/** An event longer than MAX_EVENT_CHARS: a broken server or proxy, not a reply. */
export class OversizedEventError extends Error {
  constructor() {
    super('a server-sent event went past 16 MB without ending');
    this.name = 'OversizedEventError';
  }
}

/**
 * The server-sent events of a body, as they complete (eventsource-parser does the line protocol:
 * `data:` lines, comments, events split across chunks, CRLF).
 */
export async function* sseEvents(chunks: AsyncIterable<Uint8Array>): AsyncIterable<EventSourceMessage> {
  const ready: EventSourceMessage[] = [];
  let failure: Error | undefined;
  const parser = createParser({
    maxBufferSize: MAX_EVENT_CHARS,
    onEvent: (event) => ready.push(event),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure = new OversizedEventError();
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of chunks) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (failure) throw failure;
    yield* ready.splice(0);
  }
  parser.feed(decoder.decode());
  // A last event without its closing blank line (a server that ends the body right after it) still counts.
  parser.reset({ consume: true });
  yield* ready.splice(0);
}
