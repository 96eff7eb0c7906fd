import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  IncompleteStreamError,
  ModelNotFoundError,
  mapOllamaError,
  OllamaError,
  OllamaHttpError,
  ServerUnreachableError,
  StreamError,
  UnsupportedCapabilityError,
} from '../../src/ollama/errors.js';
import { IdleTimeoutError } from '../../src/ollama/idle-timeout.js';
import { OversizedLineError } from '../../src/ollama/ndjson-objects.js';

const host = 'http://127.0.0.1:11434';

/** The npm client's ResponseError (not exported by the package), as it looks at runtime. */
function responseError(status: number, error: string): Error {
  return Object.assign(new Error(error), { name: 'ResponseError', error, status_code: status });
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

describe('mapOllamaError', () => {
  it('maps fetch failed with ECONNREFUSED to unreachable, naming the host and `ollama serve`', () => {
    const error = mapOllamaError(fetchFailed(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })), {
      host,
    });
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(
      `Cannot reach Ollama at ${host} (connection refused). Is it running? Start it with \`ollama serve\` (or set --host / OLLAMA_HOST).`,
    );
    expect(error.hint).toContain('ollama serve');
  });

  /** Each failure as fetch (undici) and as node:http report it: what the message must say, and no code. */
  const failures: [string, string, string, RegExp][] = [
    [
      'ENOTFOUND',
      'getaddrinfo ENOTFOUND gpu-box',
      "no host named 'gpu-box' was found",
      /host name in --host/,
    ],
    [
      'EAI_AGAIN',
      'getaddrinfo EAI_AGAIN gpu-box',
      "looking up the name 'gpu-box' failed",
      /network connection/,
    ],
    ['EHOSTUNREACH', 'connect EHOSTUNREACH', 'the network cannot reach that host', /network connection/],
    ['ENETUNREACH', 'connect ENETUNREACH', 'the network cannot reach that host', /network connection/],
    ['ETIMEDOUT', 'connect ETIMEDOUT', 'connecting timed out', /firewall/],
    ['ECONNRESET', 'read ECONNRESET', 'closed the connection without answering', /use https:\/\//],
    ['EPIPE', 'write EPIPE', 'closed the connection without answering', /Ollama server/],
    [
      'ERR_SSL_WRONG_VERSION_NUMBER',
      'error:0A00010B:SSL routines:ssl3_get_record:wrong version number',
      'answers plain HTTP, not HTTPS',
      /use http:\/\/gpu-box:11434 in --host/,
    ],
    [
      'EPROTO',
      'write EPROTO error:0A00010B:SSL routines::wrong version number',
      'plain HTTP, not HTTPS',
      /http:\/\//,
    ],
    [
      'EPROTO',
      'write EPROTO error:0A000410:SSL routines::sslv3 alert handshake failure',
      'TLS',
      /speaks HTTPS/,
    ],
    ['ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'tlsv1 alert protocol version', 'TLS', /speaks HTTPS/],
    [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'self-signed certificate',
      'certificate is self-signed',
      /NODE_EXTRA_CA_CERTS/,
    ],
    [
      'SELF_SIGNED_CERT_IN_CHAIN',
      'self-signed certificate in certificate chain',
      'not trust',
      /NODE_EXTRA_CA_CERTS/,
    ],
    [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'unable to verify the first certificate',
      'does not know',
      /NODE_EXTRA_CA_CERTS/,
    ],
    ['CERT_HAS_EXPIRED', 'certificate has expired', 'certificate has expired', /Renew/],
    ['CERT_NOT_YET_VALID', 'certificate is not yet valid', 'not valid yet', /clock/],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      "Hostname/IP does not match certificate's altnames",
      "not for 'gpu-box'",
      /host name the certificate lists/,
    ],
    ['HPE_INVALID_CONSTANT', 'Response does not match the HTTP/1.1 protocol', 'not HTTP', /Ollama server/],
  ];

  describe.each(['fetch', 'node:http'])('as %s reports them', (transport) => {
    it.each(failures)('%s (%s) says what happened and what to do', (code, said, reason, hint) => {
      const https = code.includes('SSL') || code === 'EPROTO' || /CERT/.test(code);
      const target = `${https ? 'https' : 'http'}://gpu-box:11434`;
      const cause = Object.assign(new Error(said), { code });
      const err = transport === 'fetch' ? fetchFailed(cause) : cause;
      const error = mapOllamaError(err, { host: target });
      expect(error).toBeInstanceOf(ServerUnreachableError);
      expect(error.message).toContain(`Cannot reach Ollama at ${target} (`);
      expect(error.message).toContain(reason);
      expect(error.message).toMatch(hint);
      expect(error.hint).toMatch(hint);
      expect(error.message).not.toContain(code);
      expect(error.message).not.toContain('ollama serve');
    });
  });

  it('a reset on an https:// host does not suggest https://', () => {
    const error = mapOllamaError(fetchFailed(Object.assign(new Error('x'), { code: 'ECONNRESET' })), {
      host: 'https://gpu-box:443',
    });
    expect(error.message).not.toContain('use https://');
  });

  it('a connection lost after the reply began streaming is a mid-reply failure, the partial kept', () => {
    const partial = { content: 'Half an ans', thinking: '' };
    const err = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    const error = mapOllamaError(err, { host, partial });
    expect(error).toBeInstanceOf(StreamError);
    expect(error.partial).toEqual(partial);
    expect(error.message).toContain(`closed the connection without answering (${host})`);
  });

  it('finds the code inside an AggregateError cause (several addresses tried)', () => {
    const cause = new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'all failed');
    expect(mapOllamaError(fetchFailed(cause), { host }).message).toContain('(connection refused)');
  });

  it('still calls an unknown fetch failure unreachable, with what Node said', () => {
    const error = mapOllamaError(fetchFailed(new Error('something new broke')), { host });
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect(error.message).toContain('(the connection failed: something new broke)');
  });

  it('maps 404 "model not found" to ModelNotFoundError listing the installed models', () => {
    const error = mapOllamaError(responseError(404, "model 'qwen3' not found"), {
      host,
      model: 'qwen3',
      installed: ['llama3.2:latest', 'qwen3:8b'],
    });
    expect(error).toBeInstanceOf(ModelNotFoundError);
    expect(error.kind).toBe('model-not-found');
    expect(error.message).toBe(
      "Model 'qwen3' is not installed. Did you mean 'qwen3:8b'? Installed: llama3.2:latest, qwen3:8b. Download it with `ollama pull qwen3`.",
    );
    expect((error as ModelNotFoundError).installed).toEqual(['llama3.2:latest', 'qwen3:8b']);
  });

  it('says when no models are installed, and names the model from the server text if not given', () => {
    const error = mapOllamaError(responseError(404, "model 'foo' not found"), { host, installed: [] });
    expect(error.message).toBe(
      "Model 'foo' is not installed. No models are installed. Download it with `ollama pull foo`.",
    );
  });

  it('just names the model when the installed list is unknown', () => {
    const error = mapOllamaError(responseError(404, "model 'foo' not found"), { host, model: 'foo' });
    expect(error.message).toBe("Model 'foo' is not installed. Download it with `ollama pull foo`.");
  });

  it('points `ollama pull` at a non-default host and shortens a long list', () => {
    const installed = Array.from({ length: 10 }, (_, i) => `m${i}:latest`);
    const error = mapOllamaError(responseError(404, "model 'x' not found"), {
      host: 'http://gpu:11434',
      model: 'x',
      installed,
    });
    expect(error.message).toContain('m7:latest (+2 more)');
    expect(error.message).not.toContain('m8:latest');
    expect(error.hint).toBe('Download it with `OLLAMA_HOST=http://gpu:11434 ollama pull x`.');
  });

  it('keeps a 404 that is not about a model (wrong path behind a proxy) an HTTP error', () => {
    const error = mapOllamaError(responseError(404, '404 page not found'), { host, model: 'qwen3' });
    expect(error).toBeInstanceOf(OllamaHttpError);
    expect(error.message).toBe('Ollama answered HTTP 404: 404 page not found');
  });

  it.each([
    ['registry.ollama.ai/library/gemma:2b does not support tools', 'tools', 'turn tools off'],
    ['"deepseek-r1" does not support thinking', 'thinking', 'Turn thinking off'],
  ])('maps 400 %j to UnsupportedCapabilityError', (text, capability, fix) => {
    const error = mapOllamaError(responseError(400, text), { host, model: 'm1' });
    expect(error).toBeInstanceOf(UnsupportedCapabilityError);
    expect(error.kind).toBe('unsupported-capability');
    expect((error as UnsupportedCapabilityError).capability).toBe(capability);
    expect(error.message).toContain(`Model 'm1' does not support ${capability}.`);
    expect(error.message).toContain(fix);
  });

  it('maps other statuses to OllamaHttpError with the server message and, for 5xx, where to look', () => {
    const error = mapOllamaError(
      responseError(500, 'model requires more system memory (5.5 GiB) than is available'),
      {
        host,
      },
    );
    expect(error).toBeInstanceOf(OllamaHttpError);
    expect((error as OllamaHttpError).status).toBe(500);
    expect(error.message).toBe(
      'Ollama answered HTTP 500: model requires more system memory (5.5 GiB) than is available. See the Ollama server log for details.',
    );
  });

  it('maps an AbortError to AbortedError', () => {
    const aborted = mapOllamaError(new DOMException('This operation was aborted', 'AbortError'), { host });
    expect(aborted).toBeInstanceOf(AbortedError);
    expect(aborted.kind).toBe('aborted');
  });

  it('maps a silent server (request_timeout_s, or the 300 s of undici) to one clear line, never a raw code', () => {
    const partial = { content: 'Hel', thinking: '' };
    const idle = mapOllamaError(new IdleTimeoutError(120_000), { host, partial });
    expect(idle.kind).toBe('timeout');
    expect(idle.partial).toEqual(partial);
    expect(idle.message).toBe(
      `Ollama at ${host} sent nothing for 120 s, so the request was stopped. If the model is still loading, try again, or raise request_timeout_s in the config.`,
    );
  });

  it('maps an oversized stream line to a clear error naming the cap', () => {
    const mapped = mapOllamaError(new OversizedLineError(16 * 1024 * 1024), { host });
    expect(mapped.message).toBe(
      `The server at ${host} sent a line of more than 16 MB without a line break, so the reply was stopped. Is it an Ollama server? Check --host / OLLAMA_HOST, and any proxy in between.`,
    );
  });

  it('maps a plain Error (an error line mid-stream) to StreamError, keeping the partial reply', () => {
    const partial = { content: 'Hello, wor', thinking: 'hmm' };
    const error = mapOllamaError(new Error('an error was encountered while running the model'), {
      host,
      partial,
    });
    expect(error).toBeInstanceOf(StreamError);
    expect(error.kind).toBe('stream');
    expect(error.message).toBe(
      'Ollama stopped mid-reply: an error was encountered while running the model. Try again; if it keeps happening, see the Ollama server log.',
    );
    expect(error.partial).toEqual(partial);
  });

  it("maps the npm client's missing-done error to IncompleteStreamError", () => {
    const error = mapOllamaError(new Error('Did not receive done or success response in stream.'), { host });
    expect(error).toBeInstanceOf(IncompleteStreamError);
    expect(error.kind).toBe('incomplete-stream');
  });

  it('maps a socket closed mid-body ("terminated") to a stream error, not "cannot reach"', () => {
    const error = mapOllamaError(
      new TypeError('terminated', { cause: Object.assign(new Error('aborted'), { code: 'ECONNRESET' }) }),
      {
        host,
      },
    );
    expect(error).toBeInstanceOf(StreamError);
    expect(error.message).toContain(`the connection to ${host} closed`);
  });

  it('explains a non-JSON answer as probably not an Ollama server', () => {
    const error = mapOllamaError(new SyntaxError('Unexpected token < in JSON'), { host: 'http://x:80' });
    expect(error.kind).toBe('unexpected');
    expect(error.message).toContain('http://x:80');
    expect(error.message).toContain('not valid JSON');
  });

  it('wraps anything else as unexpected, and never leaks a stack or newlines', () => {
    const weird = new RangeError('line one\n    at foo (file.js:1:1)\n    at bar');
    const error = mapOllamaError(weird, { host });
    expect(error).toBeInstanceOf(OllamaError);
    expect(error.kind).toBe('unexpected');
    expect(error.message).not.toContain('\n');
    expect(mapOllamaError('a string', { host }).message).toContain('a string');
    const long = mapOllamaError(responseError(500, `x${'y'.repeat(1000)}`), { host });
    expect(long.message.length).toBeLessThan(400);
  });

  it('returns an OllamaError unchanged and keeps the original as cause', () => {
    const original = new StreamError('boom');
    expect(mapOllamaError(original, { host })).toBe(original);
    const cause = new Error('x');
    expect(mapOllamaError(cause, { host }).cause).toBe(cause);
  });
});
