/**
 * Config files that are not config files, end to end: each is refused at once with one clear
 * line naming the file (and the line where there is one) and exit 2 — never a hang, a stack
 * trace or an "unexpected error".
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runOchat } from '../support/e2e-process.js';

const dir = mkdtempSync(join(tmpdir(), 'ochat-bad-config-'));
const sockets: Server[] = [];
afterAll(() => {
  for (const server of sockets) server.close();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Runs `ochat -c <config> -p hi` against no server: a config error must come first. */
async function withConfig(config: string) {
  const result = await runOchat(['-c', config, '-m', 'llama3.2', '-p', 'hi'], {
    env: { OLLAMA_HOST: 'http://127.0.0.1:9' },
    // A hang is the failure these guard against; the runs themselves take well under a second.
    timeoutMs: 15_000,
  });
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /i);
  return result;
}

describe('a config that is not a config file', () => {
  test.each([
    [
      'a FIFO',
      () => {
        const fifo = join(dir, 'fifo.yml');
        execFileSync('mkfifo', [fifo]);
        return fifo;
      },
    ],
    [
      'a socket',
      () => {
        const socket = join(dir, 'socket.yml');
        // A listening socket's file, left behind by a server that ended (the test's own).
        const server = createServer().listen(socket);
        sockets.push(server);
        return socket;
      },
    ],
    ['/dev/zero', () => '/dev/zero'],
    ['/dev/urandom', () => '/dev/urandom'],
  ])('%s is refused as not a regular file, exit 2', async (_, make) => {
    const path = make();
    const result = await withConfig(path);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`ochat: ${path}: is not a regular file (a FIFO, socket or device)\n`);
  });

  test('a file over 1 MB is refused, exit 2', async () => {
    const path = file('huge.yml', `# ${'x'.repeat(1_100_000)}\n`);
    const result = await withConfig(path);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/huge\.yml: is too large \(1\.\d MB; a config file is at most 1 MB\)\n$/);
  });

  test('a directory is refused, exit 2', async () => {
    const result = await withConfig(dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is a directory, not a config file');
  });
});

describe('bad values and keys', () => {
  test('host: http://256.256.256.256 is a config error at its line, exit 2', async () => {
    const path = file('host.yml', 'model: llama3.2\nhost: http://256.256.256.256\n');
    const result = await withConfig(path);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /host\.yml:2:7: host: Invalid Ollama host 'http:\/\/256\.256\.256\.256': '256\.256\.256\.256' is not a valid IPv4 address/,
    );
  });

  test('50,000 unknown keys: a screenful of issues and a count, exit 2, without a hang', async () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}\n`).join('');
    const result = await withConfig(file('many.yml', keys));
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[0]).toMatch(/many\.yml:1:1: k0: unknown key/);
    expect(lines.at(-1)).toMatch(/many\.yml: … and 49980 more issues$/);
  });

  test('a key written twice is named at its second place', async () => {
    const result = await withConfig(file('twice.yml', 'compaction:\n  auto: true\n  auto: false\n'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/twice\.yml:3:3: duplicate key "auto"\n$/);
  });
});

test('-c "" is a usage error, exit 2', async () => {
  const result = await runOchat(['-c', '', '-p', 'hi'], { env: { OLLAMA_HOST: 'http://127.0.0.1:9' } });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("option '-c, --config <file>' argument '' is invalid");
});
