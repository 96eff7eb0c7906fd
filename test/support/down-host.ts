import { createServer } from 'node:net';

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
