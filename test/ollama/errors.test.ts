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
import { OversizedLineError } from '../../src/ollama/ndjson-filter.js';

const host = 'http://127.0.0.1:11434';

/** The npm client's ResponseError (not exported by the package), as it looks at runtime. */
function responseError(status: number, error: string): Error {
  return Object.assign(new Error(error), { name: 'ResponseError', error, status_code: status });
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

describe('mapOllamaError', () => {
  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ENOTFOUND', 'host not found'],
    ['EHOSTUNREACH', 'host unreachable'],
    ['ECONNRESET', 'connection reset'],
  ])('maps fetch failed with %s to unreachable, naming the host and the fix', (code, reason) => {
    const error = mapOllamaError(fetchFailed({ code }), { host });
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(
      `Cannot reach Ollama at ${host} (${reason}). Is it running? Start it with \`ollama serve\` (or set --host / OLLAMA_HOST).`,
    );
    expect(error.hint).toContain('ollama serve');
  });

  it('finds the code inside an AggregateError cause (several addresses tried)', () => {
    const cause = new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'all failed');
    expect(mapOllamaError(fetchFailed(cause), { host }).message).toContain('(connection refused)');
  });

  it('still calls an unknown fetch failure unreachable, with what Node said', () => {
    const error = mapOllamaError(fetchFailed(new Error('self-signed certificate')), { host });
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect(error.message).toContain('(self-signed certificate)');
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
    for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
      const undici = new TypeError('fetch failed', {
        cause: Object.assign(new Error('Headers Timeout Error'), { code }),
      });
      const mapped = mapOllamaError(undici, { host });
      expect(mapped.kind).toBe('timeout');
      expect(mapped.message).toContain('sent nothing for 300 s');
      expect(mapped.message).not.toContain('UND_ERR');
    }
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
    const error = mapOllamaError(new TypeError('terminated', { cause: { code: 'UND_ERR_SOCKET' } }), {
      host,
    });
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
