import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HOST, InvalidHostError, parseHost, resolveHost } from '../../src/platform/host.js';

describe('parseHost', () => {
  it.each([
    ['', DEFAULT_HOST],
    ['   ', DEFAULT_HOST],
    ['localhost', 'http://localhost:11434'],
    ['1.2.3.4', 'http://1.2.3.4:11434'],
    ['example.com:1234', 'http://example.com:1234'],
    ['Example.COM', 'http://example.com:11434'],
    [':8080', 'http://127.0.0.1:8080'],
    ['http://example.com', 'http://example.com:80'],
    ['https://example.com', 'https://example.com:443'],
    ['http://1.2.3.4:4321', 'http://1.2.3.4:4321'],
    ['HTTPS://example.com:4321', 'https://example.com:4321'],
    ['http://localhost:11434/', 'http://localhost:11434'],
    ['http://localhost:11434///', 'http://localhost:11434'],
    ['https://example.com/ollama', 'https://example.com:443/ollama'],
    ['https://example.com/ollama/', 'https://example.com:443/ollama'],
    ['localhost:11434/', 'http://localhost:11434'],
    ['[::1]', 'http://[::1]:11434'],
    ['[::1]:1337', 'http://[::1]:1337'],
    ['::1', 'http://[::1]:11434'],
    ['http://[::1]', 'http://[::1]:80'],
    ['  1.2.3.4  ', 'http://1.2.3.4:11434'],
    ['"1.2.3.4"', 'http://1.2.3.4:11434'],
    ["'1.2.3.4:99'", 'http://1.2.3.4:99'],
    ['0.0.0.0', 'http://0.0.0.0:11434'],
    ['host.docker.internal:11434', 'http://host.docker.internal:11434'],
  ])('%j → %s', (input, expected) => {
    expect(parseHost(input)).toBe(expected);
  });

  it.each([
    ['http://', 'no host name'],
    ['https:///path', 'no host name'],
    ['host:notaport', "'notaport' is not a valid port"],
    ['host:', "'' is not a valid port"],
    ['host:0', "'0' is not a valid port"],
    ['host:65536', "'65536' is not a valid port"],
    [':-1', "'-1' is not a valid port"],
    ['ftp://x', "unsupported scheme 'ftp'"],
    ['[::1', 'unterminated [IPv6] address'],
    ['[::1]x', 'unterminated [IPv6] address'],
    ['bad host', "'bad host' is not a valid host name"],
    ['http://256.256.256.256', "'256.256.256.256' is not a valid IPv4 address"],
    ['http://host:80/a?b=c', 'the path may not contain'],
  ])('rejects %j (%s)', (input, reason) => {
    const error = (() => {
      try {
        parseHost(input);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidHostError);
    const message = (error as InvalidHostError).message;
    expect(message).toContain(`'${input}'`);
    expect(message).toContain(reason);
    expect(message).toContain('host:port');
    expect((error as InvalidHostError).value).toBe(input);
  });

  it('is idempotent: a parsed host parses to itself', () => {
    // A name whose last label is a number is read as an IPv4 address (fc.ipV4 below covers those).
    const hostName = fc
      .stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?){0,2}$/)
      .filter((name) => /[a-z-]/.test(name.split('.').at(-1) ?? ''));
    const form = fc.oneof(
      hostName,
      fc.tuple(hostName, fc.integer({ min: 1, max: 65535 })).map(([h, p]) => `${h}:${p}`),
      fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`),
      fc.tuple(fc.constantFrom('http', 'https'), hostName).map(([s, h]) => `${s}://${h}/`),
      fc.ipV6().map((ip) => `[${ip}]`),
      fc.ipV4(),
    );
    fc.assert(
      fc.property(form, (input) => {
        const once = parseHost(input);
        expect(parseHost(once)).toBe(once);
        expect(once).toMatch(/^https?:\/\/[^/]+:\d+(\/.*)?$/);
      }),
    );
  });
});

describe('resolveHost', () => {
  it('prefers the flag, then OLLAMA_HOST, then the config, then the default', () => {
    expect(resolveHost({ flag: 'a:1', env: 'b:2', config: 'c:3' })).toBe('http://a:1');
    expect(resolveHost({ env: 'b:2', config: 'c:3' })).toBe('http://b:2');
    expect(resolveHost({ config: 'c:3' })).toBe('http://c:3');
    expect(resolveHost({})).toBe(DEFAULT_HOST);
  });

  it('treats empty values as unset (OLLAMA_HOST= falls through)', () => {
    expect(resolveHost({ flag: '', env: '  ', config: 'c:3' })).toBe('http://c:3');
  });

  it('reports an invalid value from whichever source won', () => {
    expect(() => resolveHost({ env: 'ftp://x', config: 'c:3' })).toThrow(InvalidHostError);
  });
});
