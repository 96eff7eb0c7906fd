/**
 * The recording proxy in front of a stand-in upstream whose end of the body the test holds back:
 * a client that closes at `data: [DONE]` (as ochat does) before that end still gets its answer
 * recorded; a client that goes away mid-reply (a cancelled turn) cancels the upstream request.
 */
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { deliberatePause, waitUntil } from '../wait-until.js';
import { type RecordingProxy, startRecordingProxy } from './recording-proxy.js';

const CHUNK = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hi' } }] })}\n\n`;
const USAGE = `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } })}\n\n`;

let upstream: Server | undefined;
let proxy: RecordingProxy | undefined;

afterEach(async () => {
  await proxy?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  proxy = upstream = undefined;
});

/** An upstream that streams `events` and leaves the response open: the test ends it. */
async function holdingUpstream(events: string): Promise<{ url: string; held: Promise<ServerResponse> }> {
  let hand: (res: ServerResponse) => void = () => {};
  const held = new Promise<ServerResponse>((resolve) => {
    hand = resolve;
  });
  upstream = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(events);
    hand(res);
  });
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, held };
}

/** POSTs a chat completion to the proxy and closes the connection once the body holds `until`. */
function postAndCloseAt(url: string, until: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/chat/completions`, { method: 'POST' }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (!text.includes(until)) return;
        req.destroy();
        resolve();
      });
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end(JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'Hello' }] }));
  });
}

test('a reply whose client closed at [DONE] before the body ended is recorded once it ends', async () => {
  const { url, held } = await holdingUpstream(`${CHUNK}${USAGE}data: [DONE]\n\n`);
  proxy = await startRecordingProxy(url);
  await postAndCloseAt(proxy.url, 'data: [DONE]');
  const res = await held;
  // The server's end of the body comes late, as on a loaded machine: the proxy sees the client go first.
  await deliberatePause(100, "a server's timing: the body's end held back after [DONE]");
  res.end();

  await waitUntil('the completion recorded', () => proxy!.completions.length === 1, { timeoutMs: 5000 });
  expect(proxy.completions[0]).toMatchObject({ status: 200, text: 'Hi', usage: { prompt_tokens: 5 } });
  expect(proxy.inFlight).toBe(0);
});

test('a client that goes away mid-reply cancels the upstream request, which is not recorded', async () => {
  const { url, held } = await holdingUpstream(CHUNK);
  proxy = await startRecordingProxy(url);
  await postAndCloseAt(proxy.url, 'Hi');
  const res = await held;

  await waitUntil('the upstream request cancelled', () => res.destroyed, { timeoutMs: 5000 });
  await waitUntil('nothing in flight', () => proxy!.inFlight === 0, { timeoutMs: 5000 });
  expect(proxy.completions).toEqual([]);
});
