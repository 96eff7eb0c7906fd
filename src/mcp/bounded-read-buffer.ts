import {
  deserializeMessage,
  type JSONRPCMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
} from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { formatBytes } from '../text/format-bytes.js';

/** The most one message from a stdio server may take (the SDK's own limit, 10 MiB). */
export const MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;
/** Bytes kept of each end of a message over the limit: enough to find its id. */
const EDGE_BYTES = 256;
/** The JSON-RPC code of the error that stands in for a message over the limit (the implementation-defined range). */
export const OVER_LIMIT_CODE = -32000;

/** A line over the limit, dropped as it arrived: its size and both ends. */
export interface DroppedLine {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

/**
 * A byte stream split into lines (at `\n`, kept off), each at most `maxBytes`: a longer one is
 * dropped as it arrives, its size and ends kept. Pieces are kept in a list and joined once per
 * line: linear in what arrives, where joining the whole buffer again for every chunk is quadratic.
 */
export class BoundedLines {
  #parts: Buffer[] = [];
  #partBytes = 0;
  #dropping: DroppedLine | undefined;
  #lines: (Buffer | DroppedLine)[] = [];

  constructor(readonly maxBytes: number) {}

  append(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      this.#take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  /** The unfinished last line, ended: the stream ended without a last newline. */
  end(): void {
    if (this.#dropping || this.#partBytes > 0) this.#endLine();
  }

  /** The next whole line, oldest first. */
  shift(): Buffer | DroppedLine | undefined {
    return this.#lines.shift();
  }

  clear(): void {
    this.#parts = [];
    this.#partBytes = 0;
    this.#dropping = undefined;
    this.#lines = [];
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    const dropping = this.#dropping;
    if (dropping) {
      dropping.bytes += piece.length;
      dropping.tail = lastBytes(Buffer.concat([dropping.tail, piece.subarray(-EDGE_BYTES)]));
      return;
    }
    if (this.#partBytes + piece.length <= this.maxBytes) {
      this.#parts.push(piece);
      this.#partBytes += piece.length;
      return;
    }
    const kept = Buffer.concat([...this.#parts, piece.subarray(0, EDGE_BYTES)]);
    this.#dropping = {
      bytes: this.#partBytes + piece.length,
      head: kept.subarray(0, EDGE_BYTES),
      tail: lastBytes(Buffer.concat([kept.subarray(-EDGE_BYTES), piece.subarray(-EDGE_BYTES)])),
    };
    this.#parts = [];
    this.#partBytes = 0;
  }

  #endLine(): void {
    if (this.#dropping) {
      this.#lines.push(this.#dropping);
      this.#dropping = undefined;
      return;
    }
    this.#lines.push(this.#parts.length === 1 ? this.#parts[0] : Buffer.concat(this.#parts));
    this.#parts = [];
    this.#partBytes = 0;
  }
}

/** Requests sent and not yet answered, oldest first: who an answer dropped for its size was for. */
export class AwaitedAnswers {
  #awaiting: (string | number)[] = [];

  /** A message ochat sent: a request among them waits for its answer. */
  sent(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message && message.id !== undefined) this.#awaiting.push(message.id);
  }

  /** A message that arrived: an answer among them is no longer waited for. */
  received(message: JSONRPCMessage): void {
    if (!('method' in message) && 'id' in message && message.id !== undefined) this.answered(message.id);
  }

  /** Whether any request waits for its answer. */
  get waiting(): boolean {
    return this.#awaiting.length > 0;
  }

  clear(): void {
    this.#awaiting = [];
  }

  /** The error answer that stands in for a dropped one; undefined when it answered no request of ours. */
  overLimitAnswer(dropped: DroppedLine, maxBytes: number): JSONRPCMessage | undefined {
    const id = idIn(dropped) ?? (this.#awaiting.length === 1 ? this.#awaiting[0] : undefined);
    if (id === undefined || !this.#awaiting.includes(id)) return undefined;
    this.answered(id);
    return overLimitError(id, dropped.bytes, maxBytes);
  }

  answered(id: string | number): void {
    const index = this.#awaiting.indexOf(id);
    if (index >= 0) this.#awaiting.splice(index, 1);
  }
}

/** The error answer that stands in for request `id`'s answer of `bytes`, over `maxBytes`. */
export function overLimitError(id: string | number, bytes: number, maxBytes: number): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: OVER_LIMIT_CODE,
      message: `the result was ${formatBytes(bytes)}, over the ${formatBytes(maxBytes)} limit of one MCP message: it was dropped, and the server keeps running`,
    },
  };
}

/**
 * A stdio server's output split into JSON-RPC messages, one per line, as the SDK's `ReadBuffer`
 * does, but a message over {@link MAX_MESSAGE_BYTES} costs the connection nothing: the SDK's own
 * buffer throws and its transport closes the server (a 50 MB tool result was reported as "the
 * server closed the connection"). Here such a line is dropped as it arrives, its ends kept; the
 * request it answered gets an error saying the result was over the limit, and the server stays.
 */
export class BoundedReadBuffer {
  readonly #lines: BoundedLines;
  readonly #awaited = new AwaitedAnswers();

  constructor(readonly maxBytes = MAX_MESSAGE_BYTES) {
    this.#lines = new BoundedLines(maxBytes);
  }

  /** A message ochat sent: a request among them waits for its answer. */
  sent(message: JSONRPCMessage): void {
    this.#awaited.sent(message);
  }

  append(chunk: Buffer): void {
    this.#lines.append(chunk);
  }

  readMessage(): JSONRPCMessage | null {
    for (let line = this.#lines.shift(); line !== undefined; line = this.#lines.shift()) {
      if (!Buffer.isBuffer(line)) {
        const answer = this.#awaited.overLimitAnswer(line, this.maxBytes);
        if (answer) return answer;
        continue;
      }
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line.toString('utf8').replace(/\r$/, ''));
      } catch (error) {
        // As the SDK does: a line that is not JSON (a stray log line) is skipped.
        if (error instanceof SyntaxError) continue;
        throw error;
      }
      this.#awaited.received(message);
      return message;
    }
    return null;
  }

  clear(): void {
    this.#lines.clear();
    this.#awaited.clear();
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length > EDGE_BYTES ? Buffer.from(buffer.subarray(-EDGE_BYTES)) : buffer;
}

/** The id of a JSON-RPC answer from either end of it: `{"jsonrpc":"2.0","id":7,…` or `…,"id":7}`, also as an SSE `data:` line. */
function idIn(dropped: DroppedLine): string | number | undefined {
  const head =
    /^\s*(?:data:\s*)?\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(
      dropped.head.toString('latin1'),
    );
  const tail = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*\r?$/.exec(dropped.tail.toString('latin1'));
  const found = head?.[1] ?? tail?.[1];
  if (found === undefined) return undefined;
  return found.startsWith('"') ? (JSON.parse(found) as string) : Number(found);
}

/**
 * Reads `transport`'s messages through a {@link BoundedReadBuffer} in place of the SDK's own
 * (a private field of SDK 2.x, checked by test/mcp/bounded-read-buffer.test.ts); false, and the
 * SDK's buffer kept, where the field is not there.
 */
export function boundReadBuffer(transport: StdioClientTransport): boolean {
  const fields = transport as unknown as { _readBuffer?: unknown };
  if (
    !('_readBuffer' in fields) ||
    typeof (fields._readBuffer as { append?: unknown })?.append !== 'function'
  )
    return false;
  const buffer = new BoundedReadBuffer();
  fields._readBuffer = buffer;
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    buffer.sent(message);
    return send(message);
  };
  return true;
}
