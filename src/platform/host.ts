import type * as Net from 'node:net';
import { nodeBuiltin } from './node-builtin.js';

/** Where Ollama listens when nothing else is configured. */
export const DEFAULT_HOST = 'http://127.0.0.1:11434';

const DEFAULT_PORT = '11434';
const ACCEPTED_FORMS =
  'host, host:port, :port, [ipv6]:port, http://host[:port][/path] or https://host[:port][/path]';
const HOSTNAME = /^[A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?$/;

/** A host setting that cannot be turned into an Ollama URL. */
export class InvalidHostError extends Error {
  /** The value as the user gave it. */
  readonly value: string;

  constructor(value: string, reason: string) {
    super(`Invalid Ollama host '${value}': ${reason}. Use one of: ${ACCEPTED_FORMS}.`);
    this.name = 'InvalidHostError';
    this.value = value;
  }
}

/**
 * Normalises an Ollama host setting to `scheme://host:port[/path]`, the way the Ollama CLI reads
 * OLLAMA_HOST: no scheme → http with port 11434; `http://` without a port → 80, `https://` → 443;
 * `:port` → 127.0.0.1; bare or bracketed IPv6; surrounding spaces/quotes and trailing slashes
 * dropped; a path prefix (reverse proxy) kept. Unlike the CLI, which silently falls back to a
 * default port, anything unusable throws `InvalidHostError`. An empty value means the default.
 */
export function parseHost(input: string): string {
  const value = input
    .trim()
    .replace(/^["']+|["']+$/g, '')
    .trim();
  if (value === '') return DEFAULT_HOST;

  let scheme = 'http';
  let defaultPort = DEFAULT_PORT;
  let rest = value;
  const schemeEnd = value.indexOf('://');
  // `htp:/foo`, `http:/x`: meant as a URL, but not one (read as host `htp` and port '' otherwise).
  if (schemeEnd < 0 && /^[a-z][a-z0-9+.-]*:\//i.test(value)) {
    throw new InvalidHostError(input, 'malformed URL (a URL starts with http:// or https://)');
  }
  if (schemeEnd >= 0) {
    scheme = value.slice(0, schemeEnd).toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') {
      throw new InvalidHostError(input, `unsupported scheme '${scheme}' (only http and https)`);
    }
    defaultPort = scheme === 'https' ? '443' : '80';
    rest = value.slice(schemeEnd + 3);
  }

  const slash = rest.indexOf('/');
  const hostPort = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash).replace(/\/+$/, '');
  if (/[\s?#]/.test(path)) throw new InvalidHostError(input, 'the path may not contain spaces, ? or #');

  const { host, port } = splitHostPort(input, hostPort);
  return `${scheme}://${formatHost(input, host)}:${checkPort(input, port ?? defaultPort)}${path}`;
}

/** Where the host setting can come from; the first non-empty one wins. */
export interface HostSources {
  /** `--host` on the command line. */
  flag?: string;
  /** The OLLAMA_HOST environment variable. */
  env?: string;
  /** `host` in the config file. */
  config?: string;
}

/**
 * Picks and normalises the host: flag > OLLAMA_HOST > config > default. The npm client ignores
 * OLLAMA_HOST, so this is the only place it is read from. Empty values are treated as unset.
 */
export function resolveHost(sources: HostSources): string {
  for (const candidate of [sources.flag, sources.env, sources.config]) {
    if (candidate !== undefined && candidate.trim() !== '') return parseHost(candidate);
  }
  return DEFAULT_HOST;
}

function splitHostPort(input: string, hostPort: string): { host: string; port?: string } {
  if (hostPort.startsWith('[')) {
    const match = /^\[([^\]]*)\](?::(.*))?$/.exec(hostPort);
    if (!match) throw new InvalidHostError(input, 'unterminated [IPv6] address');
    return { host: match[1], port: match[2] };
  }
  const colons = hostPort.split(':').length - 1;
  if (colons > 1) return { host: hostPort }; // a bare IPv6 address: it has no room for a port
  if (colons === 1) {
    const [host, port] = hostPort.split(':');
    return { host: host === '' ? '127.0.0.1' : host, port };
  }
  if (hostPort === '') throw new InvalidHostError(input, 'no host name');
  return { host: hostPort };
}

function formatHost(input: string, host: string): string {
  // Only a name with a colon can be IPv6: the first isIPv6 call compiles a large regex (milliseconds of
  // every start on Node 22), which names and IPv4 addresses need not pay; nor loading node:net
  // (2 ms before the first frame on Node 20).
  if (host.includes(':') && nodeBuiltin<typeof Net>('node:net').isIPv6(host))
    return `[${host.toLowerCase()}]`;
  if (!HOSTNAME.test(host)) throw new InvalidHostError(input, `'${host}' is not a valid host name`);
  // A name of digits and dots is read as an IPv4 address by URL: 256.256.256.256 is none.
  if (!URL.canParse(`http://${host}`)) {
    throw new InvalidHostError(input, `'${host}' is not a valid IPv4 address`);
  }
  return host.toLowerCase();
}

function checkPort(input: string, port: string): string {
  const number = /^\d{1,5}$/.test(port) ? Number(port) : Number.NaN;
  if (!(number >= 1 && number <= 65535)) {
    throw new InvalidHostError(input, `'${port}' is not a valid port (1–65535)`);
  }
  return String(number);
}
