/**
 * A status-200 /api/chat body that is not Ollama's stream (a web server or proxy on the port), on
 * the built CLI: said once, naming the server, its content type and first bytes, not "Ollama's
 * reply ended before its final message". The rest of the API is the emulator's, through a proxy.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';

let emu: Emulator;
let proxy: Server;
let proxyUrl: string;
let chatBody: { type: string; body: string } = { type: 'text/html', body: '' };

beforeAll(async () => {
  emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
  const target = new URL(emu.url);
  proxy = createServer((req, res) => {
    if (req.url === '/api/chat') {
      req.resume();
      res.writeHead(200, { 'content-type': chatBody.type });
      res.end(chatBody.body);
      return;
    }
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await emu.close();
});

describe('a 200 body that is not Ollama stream', () => {
  test.each([
    [
      'an HTML page',
      'text/html; charset=utf-8',
      '<!DOCTYPE html>\n<html><body>Welcome to nginx!</body></html>\n',
      '<!DOCTYPE html>',
    ],
    ['plain text', 'text/plain', 'Bad gateway, try later\n', 'Bad gateway, try later'],
  ])('%s: named with its content type and first bytes, once', async (_what, type, body, shown) => {
    chatBody = { type, body };
    const result = await runOchat(['-m', 'llama3.2', '-p', 'hello'], { env: { OLLAMA_HOST: proxyUrl } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `The server at ${proxyUrl} answered with something that is not Ollama's stream (content type ${type}, starting "${shown}").`,
    );
    expect(result.stderr).not.toContain('ended before its final message');
    expect(result.stderr.split("not Ollama's stream").length - 1).toBe(1);
  });
});
