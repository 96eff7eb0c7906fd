import type { IncomingMessage, ServerResponse } from 'node:http';

/** Reads a request body; parsed JSON, the raw text if it isn't JSON, undefined if empty. */
export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sends one JSON object the way Ollama (gin) does: `application/json; charset=utf-8`. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  if (res.destroyed) return;
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Sends an Ollama error: the status and `{"error": message}`. */
export function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: message });
}

/** Sends plain text, as Ollama does for `GET /` and unknown routes. */
export function sendText(res: ServerResponse, status: number, text: string, method = 'GET'): void {
  if (res.destroyed) return;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(method === 'HEAD' ? undefined : text);
}

/**
 * Resolves after `ms`, or as soon as the response closes (the client went away), whichever comes
 * first; returns false in the second case so callers stop writing.
 */
export function waitUnlessClosed(res: ServerResponse, ms: number): Promise<boolean> {
  if (isClosed(res)) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!isClosed(res));
    }, ms);
    res.once('close', onClose);
  });
}

/** Waits until the response can take more data again, or closes; false if it closed. */
export function drainUnlessClosed(res: ServerResponse): Promise<boolean> {
  if (isClosed(res)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (open: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(open);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/** The client is gone or the response was ended. */
export function isClosed(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded;
}

/** Resolves when the client goes away (or close() destroys the socket). */
export function waitForClose(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => res.once('close', () => resolve()));
}
