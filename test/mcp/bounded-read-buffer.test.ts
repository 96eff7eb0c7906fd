import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, test } from 'vitest';
import { BoundedReadBuffer, boundReadBuffer, OVER_LIMIT_CODE } from '../../src/mcp/bounded-read-buffer.js';

const line = (message: object) => Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const request = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: {} });

function readAll(buffer: BoundedReadBuffer): JSONRPCMessage[] {
  const messages: JSONRPCMessage[] = [];
  for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) messages.push(m);
  return messages;
}

/** Feeds `data` in pieces of `size` bytes, as a pipe hands it over. */
function feed(buffer: BoundedReadBuffer, data: Buffer, size: number): void {
  for (let at = 0; at < data.length; at += size) buffer.append(data.subarray(at, at + size));
}

describe('BoundedReadBuffer', () => {
  test('splits lines as the SDK does, across pieces, skipping a line that is not JSON', () => {
    const buffer = new BoundedReadBuffer(1000);
    const data = Buffer.concat([
      line({ id: 1, result: {} }),
      Buffer.from('a log line\n'),
      line({ method: 'x' }),
    ]);
    feed(buffer, data, 7);
    expect(readAll(buffer)).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', method: 'x' },
    ]);
  });

  test('an answer over the limit becomes an error answer for its request (id first or last); the next lines still arrive', () => {
    const buffer = new BoundedReadBuffer(1000);
    buffer.sent(request(7));
    buffer.sent(request(8));
    const big = 'x'.repeat(5000);
    // The SDK's servers write the id last, others first.
    const idLast = Buffer.from(
      `{"result":{"content":[{"type":"text","text":"${big}"}]},"jsonrpc":"2.0","id":8}\n`,
    );
    feed(
      buffer,
      Buffer.concat([line({ id: 7, result: { text: big } }), idLast, line({ id: 9, result: {} })]),
      300,
    );
    const [first, second, third] = readAll(buffer);
    expect(first).toMatchObject({ id: 7, error: { code: OVER_LIMIT_CODE } });
    expect((first as { error: { message: string } }).error.message).toMatch(
      /^the result was 5\.0 kB, over the 1\.0 kB limit of one MCP message/,
    );
    expect(second).toMatchObject({ id: 8, error: { code: OVER_LIMIT_CODE } });
    expect(third).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
  });

  test('without a readable id, the one request waiting gets the error; a line for nobody is dropped', () => {
    const buffer = new BoundedReadBuffer(100);
    feed(buffer, Buffer.from(`{"method":"notifications/message","params":"${'y'.repeat(500)}"}\n`), 64);
    expect(readAll(buffer)).toEqual([]);
    buffer.sent(request(3));
    feed(buffer, Buffer.from(`{"result":"${'y'.repeat(500)}",  "jsonrpc":"2.0", "id" : 3 , "x":1}\n`), 64);
    expect(readAll(buffer)).toMatchObject([{ id: 3, error: { code: OVER_LIMIT_CODE } }]);
  });

  test("takes the place of the SDK stdio transport's own buffer (a private field of SDK 2.x)", () => {
    const transport = new StdioClientTransport({ command: 'true' });
    expect(boundReadBuffer(transport)).toBe(true);
    expect((transport as unknown as { _readBuffer: unknown })._readBuffer).toBeInstanceOf(BoundedReadBuffer);
  });
});
