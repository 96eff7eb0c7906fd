/** Short, human reasons for the socket error codes Node's fetch reports when a server is out of reach. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/**
 * Why a request never reached the server, or undefined if `err` is not a connection failure.
 * Node's fetch rejects with `TypeError('fetch failed')` whose `cause` carries the code; with
 * several addresses (localhost → ::1 and 127.0.0.1) the cause is an AggregateError of them.
 */
export function networkFailureReason(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = errorCode(err) ?? errorCode(err.cause) ?? errorCode(firstOf(err.cause));
  if (code !== undefined && code in REASONS) return REASONS[code];
  if (err instanceof TypeError && err.message === 'fetch failed') {
    // Unknown cause (TLS, bad certificate, …): still unreachable, and say what Node said.
    const said = firstLine(err.cause instanceof Error ? err.cause.message : '');
    if (said === 'bad port') return "Node's fetch refuses to connect to this port; run Ollama on another";
    return code ?? said ?? 'request failed';
  }
  return undefined;
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

function firstLine(text: string): string | undefined {
  const line = text.split('\n')[0].trim();
  return line === '' ? undefined : line;
}
