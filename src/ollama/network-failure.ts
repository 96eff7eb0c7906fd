/**
 * Why a request never got an answer, in words: what happened and what to do about it. Node's fetch
 * (undici) and node:http report the same failures by code — on the error itself (node:http) or on
 * its `cause` (fetch's `TypeError('fetch failed')`; with several addresses, an AggregateError).
 */
export interface NetworkFailure {
  /** What happened, naming the host where it helps: "no host named 'x' was found". */
  reason: string;
  /** What to do next; undefined when the default advice (start Ollama, check the host) fits. */
  hint?: string;
}

const HOST_HINT = 'Check --host / OLLAMA_HOST.';

/** Certificate codes (OpenSSL's, as Node reports them) meaning "signed by no authority this computer trusts". */
const UNTRUSTED_CERTIFICATE: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'is signed by a self-signed authority this computer does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'is signed by an authority this computer does not know',
  UNABLE_TO_GET_ISSUER_CERT: 'is signed by an authority this computer does not know',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'is signed by an authority this computer does not know',
  CERT_UNTRUSTED: 'is not trusted',
  CERT_SIGNATURE_FAILURE: 'has an invalid signature',
  CERT_REJECTED: 'was rejected',
};

/** What went wrong for `err` talking to `host` (a URL such as `http://127.0.0.1:11434`), or undefined if it is no network failure. */
export function describeNetworkFailure(err: unknown, host: string): NetworkFailure | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = errorCode(err) ?? errorCode(err.cause) ?? errorCode(firstOf(err.cause));
  const fetchFailed = err instanceof TypeError && err.message === 'fetch failed';
  const said = firstLine(fetchFailed ? messageOf(err.cause) : err.message) ?? '';
  const known = code === undefined ? undefined : byCode(code, said, host);
  if (known) return known;
  if (fetchFailed) {
    // Something this table does not know yet: still say what Node said, never a bare code.
    return { reason: said ? `the connection failed: ${said}` : 'the connection failed', hint: HOST_HINT };
  }
  return undefined;
}

function byCode(code: string, said: string, host: string): NetworkFailure | undefined {
  const url = parseUrl(host);
  const name = url?.hostname.replace(/^\[|\]$/g, '') ?? host;
  switch (code) {
    case 'ECONNREFUSED':
      return { reason: 'connection refused' };
    case 'ENOTFOUND':
      return {
        reason: `no host named '${name}' was found`,
        hint: 'Check the host name in --host / OLLAMA_HOST.',
      };
    case 'EAI_AGAIN':
      return {
        reason: `looking up the name '${name}' failed (no answer from the name server)`,
        hint: 'Check your network connection, then try again.',
      };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return {
        reason: 'the network cannot reach that host',
        hint: `Check your network connection and the address in --host / OLLAMA_HOST.`,
      };
    case 'ETIMEDOUT':
      return {
        reason: 'connecting timed out',
        hint: 'Check that the host is up and that no firewall blocks the port.',
      };
    case 'ECONNRESET':
    case 'ECONNABORTED':
    case 'EPIPE':
      return {
        reason: 'the server closed the connection without answering',
        hint:
          url?.protocol === 'http:'
            ? `Is it an Ollama server? ${HOST_HINT} If the server only speaks HTTPS, use https://.`
            : `Is it an Ollama server? ${HOST_HINT}`,
      };
    case 'CERT_HAS_EXPIRED':
      return {
        reason: 'its TLS certificate has expired',
        hint: "Renew the server's certificate, or check this computer's clock.",
      };
    case 'CERT_NOT_YET_VALID':
      return { reason: 'its TLS certificate is not valid yet', hint: "Check this computer's clock." };
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return {
        reason: `its TLS certificate is not for '${name}'`,
        hint: 'Connect by a host name the certificate lists.',
      };
  }
  if (code in UNTRUSTED_CERTIFICATE) {
    return {
      reason: `its TLS certificate ${UNTRUSTED_CERTIFICATE[code]}`,
      hint: 'If you trust this server, set NODE_EXTRA_CA_CERTS to a PEM file with its certificate authority.',
    };
  }
  if (isPlainHttpAnswer(code, said)) {
    const plain = url ? `http://${url.host}` : 'http://';
    return {
      reason: 'the server answers plain HTTP, not HTTPS',
      hint: `Ollama serves plain HTTP: use ${plain} in --host / OLLAMA_HOST.`,
    };
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) {
    return {
      reason: 'the secure (TLS) connection could not be set up',
      hint: `Check that the server speaks HTTPS on that port, or use http://. ${HOST_HINT}`,
    };
  }
  if (code.startsWith('HPE_')) {
    return {
      reason: 'the server answered something that is not HTTP',
      hint: `Is it an Ollama server? ${HOST_HINT}`,
    };
  }
  return undefined;
}

/** OpenSSL's ways of saying "what came back was not TLS" — typically an https:// URL to a plain-HTTP server. */
function isPlainHttpAnswer(code: string, said: string): boolean {
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_HTTP_REQUEST') return true;
  if (code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') return true;
  return code === 'EPROTO' && /wrong version number|packet length too long|http request/i.test(said);
}

function parseUrl(host: string): URL | undefined {
  try {
    return new URL(host);
  } catch {
    return undefined;
  }
}

function errorCode(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const code = (value as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function firstOf(value: unknown): unknown {
  const errors = (value as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? errors[0] : undefined;
}

function messageOf(value: unknown): string {
  return value instanceof Error ? value.message : '';
}

function firstLine(text: string): string | undefined {
  const line = text.split('\n')[0].trim();
  return line === '' ? undefined : line;
}
