/**
 * A recording proxy in front of a real server: passes every request and answer through unchanged
 * (streams stay streams) and records, per chat completion, what ochat sent and what the server
 * answered: the status, the error, and the last chunk's `usage` and `timings`. The real server
 * does not record; this lets a test or the bench see what the real engine did with each request.
 */
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat completion that went through. */
export interface RecordedCompletion {
  // biome-ignore lint/suspicious/noExplicitAny: the request body as ochat sent it.
  body: any;
  status: number;
  /** The error object of a refused request (the JSON answer's, or an SSE error event's). */
  // biome-ignore lint/suspicious/noExplicitAny: server JSON.
  error?: any;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  timings?: { prompt_n: number; cache_n: number; predicted_n: number };
  /** The streamed (or whole) reply text. */
  text: string;
}

/** A running proxy. */
export interface RecordingProxy {
  url: string;
  /** Every chat completion so far, in the order they were answered. */
  completions: RecordedCompletion[];
  /** Chat completions sent on and not yet answered whole. */
  readonly inFlight: number;
  close(): Promise<void>;
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What a chat completion's answer says, streamed or not. */
function readAnswer(record: RecordedCompletion, raw: string, streamed: boolean): void {
  if (!streamed) {
    try {
      const body = JSON.parse(raw);
      record.error = body.error;
      record.usage = body.usage;
      record.timings = body.timings;
      record.text = body.choices?.[0]?.message?.content ?? '';
    } catch {
      record.error = { message: raw };
    }
    return;
  }
  for (const line of raw.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const event = JSON.parse(line.slice(6));
    if (event.error) record.error = event.error;
    if (event.usage) record.usage = event.usage;
    if (event.timings) record.timings = event.timings;
    record.text += event.choices?.[0]?.delta?.content ?? '';
  }
}

/** Starts a proxy on a free loopback port in front of `target` (e.g. a llama-server's URL). */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const completions: RecordedCompletion[] = [];
  let inFlight = 0;
  const server = createServer(async (req, res) => {
    const requestBody = await readAll(req);
    const isCompletion = req.method === 'POST' && req.url?.startsWith('/v1/chat/completions');
    if (isCompletion) inFlight++;
    let counted = isCompletion;
    let raw = '';
    const done = () => {
      if (counted) inFlight--;
      counted = false;
    };
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        // A connection per request: a kept-alive one the server has just closed fails the next
        // request with "socket hang up", a fault of the proxy, not of ochat or the server.
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const streamed = String(answer.headers['content-type']).startsWith('text/event-stream');
        answer.on('data', (chunk: Buffer) => {
          if (isCompletion) raw += chunk.toString('utf8');
          if (!res.destroyed) res.write(chunk);
        });
        answer.on('end', () => {
          if (isCompletion) {
            const record: RecordedCompletion = {
              body: JSON.parse(requestBody.toString('utf8')),
              status: answer.statusCode ?? 0,
              text: '',
            };
            readAnswer(record, raw, streamed);
            completions.push(record);
          }
          done();
          res.end();
        });
      },
    );
    forward.on('error', (error) => {
      done();
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${String(error)}`);
    });
    // A client that goes away (a cancelled turn) cancels the upstream request too — but not one
    // that has read the whole reply: ochat closes the connection at `data: [DONE]`, often before
    // the server's end of the body reaches the proxy, and that answer is still recorded on its end.
    res.on('close', () => {
      if (res.writableFinished || raw.includes('data: [DONE]')) return;
      done();
      forward.destroy();
    });
    forward.end(requestBody);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    completions,
    get inFlight() {
      return inFlight;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
