import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRegularFile, readRegularFileHead } from '../../src/files/regular-file.js';
import { makeFifo, makeTempDir, writeTree } from '../tools/temp-sandbox.js';

const servers: net.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe('readRegularFile', () => {
  it('reads a regular file within the limit', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'a.txt': 'hello' });
    const read = await readRegularFile(path.join(dir, 'a.txt'), 100);
    expect(read.kind === 'ok' && read.content.toString()).toBe('hello');
  });

  it('refuses a file over the limit without reading it', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'a.txt': 'hello' });
    expect(await readRegularFile(path.join(dir, 'a.txt'), 4)).toEqual({ kind: 'too-large', size: 5 });
  });

  it('refuses a FIFO, a socket, a device and a directory at once, before opening them', async () => {
    const dir = makeTempDir();
    const socket = path.join(dir, 'sock');
    const server = net.createServer().listen(socket);
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    expect(await readRegularFile(makeFifo(dir), 1e6)).toEqual({
      kind: 'not-regular',
      what: 'a named pipe (FIFO)',
    });
    expect(await readRegularFile(socket, 1e6)).toEqual({ kind: 'not-regular', what: 'a socket' });
    expect(await readRegularFile('/dev/zero', 1e6)).toEqual({ kind: 'not-regular', what: 'a device' });
    expect(await readRegularFile(dir, 1e6)).toEqual({ kind: 'not-regular', what: 'a directory' });
  });

  it('throws fs errors as they are (ENOENT)', async () => {
    await expect(readRegularFile('/nonexistent/x', 10)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readRegularFileHead', () => {
  it('reads at most the first bytes of a file of any size and tells its whole size', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'a.txt': 'hello world' });
    const head = await readRegularFileHead(path.join(dir, 'a.txt'), 5);
    expect(head.kind === 'ok' && [head.content.toString(), head.size]).toEqual(['hello', 11]);
    const whole = await readRegularFileHead(path.join(dir, 'a.txt'), 100);
    expect(whole.kind === 'ok' && whole.content.toString()).toBe('hello world');
  });

  it('refuses a FIFO and a directory without opening them', async () => {
    const dir = makeTempDir();
    const fifo = makeFifo(dir);
    expect(await readRegularFileHead(fifo, 10)).toEqual({ kind: 'not-regular', what: 'a named pipe (FIFO)' });
    expect(await readRegularFileHead(dir, 10)).toEqual({ kind: 'not-regular', what: 'a directory' });
  });
});
