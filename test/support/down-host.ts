import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

/**
 * A port on 127.0.0.1 where nothing listens — "a server that is down". The OS hands out a free
 * port, which is released again before returning, so connecting to it is refused.
 */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server that accepts connections and never answers a byte, and how to end it. */
export interface SilentServer {
  url: string;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * "A server that accepts the connection and never answers": a TCP listener on 127.0.0.1 that
 * reads requests and sends nothing, holding every socket open until closed.
 */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.resume();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A local server for a connection fault, and how to end it. */
export interface FaultServer {
  /** Its address, with the scheme ochat should be told (`http://` even for the TLS server). */
  url: string;
  close(): Promise<void>;
}

/**
 * A TCP server on 127.0.0.1 that answers each request with `behaviour`: `reset` (the connection is
 * reset, ECONNRESET), `close` (closed without a byte), or `garbage` (bytes that are not HTTP).
 */
export async function startFaultyServer(behaviour: 'reset' | 'close' | 'garbage'): Promise<FaultServer> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => {
      if (behaviour === 'reset') socket.resetAndDestroy();
      else if (behaviour === 'close') socket.end();
      else socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n');
    });
  });
  return listening(server, 'http');
}

/** An HTTPS server with a self-signed certificate (test/support/tls/), answering every request with 200. */
export async function startSelfSignedTlsServer(): Promise<FaultServer> {
  const dir = join(import.meta.dirname, 'tls');
  const server = createHttpsServer(
    {
      key: readFileSync(join(dir, 'self-signed-key.pem')),
      cert: readFileSync(join(dir, 'self-signed-cert.pem')),
    },
    (_request, response) => response.end('Ollama is running'),
  );
  return listening(server, 'https');
}

async function listening(server: Server, scheme: 'http' | 'https'): Promise<FaultServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
