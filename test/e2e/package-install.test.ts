/**
 * The package as users install it: `npm pack` of the checkout, `npm install --global` of the
 * tarball into an empty prefix, then `ochat` run from a directory outside the repository. Proves
 * the bundle is self-contained (nothing resolved from the repository's node_modules) and that
 * the tarball holds what it must (license, notices) and nothing it must not (source maps).
 *
 * On CI, `.ci/run` packs the clean checkout first (so `prepack` must build dist/) and hands the
 * tarball over in OCHAT_PACKED_TARBALL; otherwise the dist/ that `npm test` just built is packed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Emulator, startEmulator } from '../support/emulator.js';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '../..');
const { version } = (await import('../../package.json', { with: { type: 'json' } })).default;

let work: string;
let prefix: string;
let tarball: string;
let emu: Emulator;

/** Environment of a user's shell: the installed bin and this Node on PATH, nothing of the repo. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
    HOME: work,
    XDG_CONFIG_HOME: join(work, 'config'),
    XDG_DATA_HOME: join(work, 'data'),
    ...extra,
  };
}

/** Total size of the files under `dir`, in bytes. */
function treeSize(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ochat-install-'));
  prefix = join(work, 'prefix');
  tarball = process.env.OCHAT_PACKED_TARBALL ?? '';
  if (!tarball) {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: REPO,
    });
    tarball = join(work, JSON.parse(stdout)[0].filename);
  }
  // --offline: a self-contained package needs nothing from the registry.
  await run(
    'npm',
    ['install', '--global', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball],
    {
      cwd: work,
      env: { ...process.env, npm_config_cache: join(work, 'npm-cache') },
    },
  );
  emu = await startEmulator({
    tokensPerSecond: Number.POSITIVE_INFINITY,
    models: [{ name: 'llama3.2:latest' }],
  });
}, 120_000);

afterAll(async () => {
  await emu?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the installed package', () => {
  test('is one package of a few MB, with its license and third-party notices and no source maps', () => {
    const installed = join(prefix, 'lib', 'node_modules');
    expect(readdirSync(installed)).toEqual(['ochat']);
    const root = join(installed, 'ochat');
    expect(existsSync(join(root, 'node_modules'))).toBe(false);
    expect(existsSync(join(root, 'LICENSE'))).toBe(true);
    expect(existsSync(join(root, 'dist', 'THIRD-PARTY-NOTICES.txt'))).toBe(true);
    const files = readdirSync(root, { recursive: true }).map(String);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(treeSize(root)).toBeLessThan(5 * 1024 * 1024);
  });

  test('prints its version from a directory outside the repository', async () => {
    const { stdout } = await run('ochat', ['--version'], { cwd: work, env: userEnv() });
    expect(stdout.trim()).toBe(version);
  });

  test('answers a one-shot prompt against the server', async () => {
    emu.enqueue({ content: 'Installed and **working**.' });
    const running = run('ochat', ['-m', 'llama3.2', '-p', 'Are you there?'], {
      cwd: work,
      env: userEnv({ OLLAMA_HOST: emu.url }),
    });
    running.child.stdin?.end(); // an open stdin pipe would be read as part of the prompt
    const { stdout, stderr } = await running;
    expect(stderr).toBe('');
    expect(stdout).toBe('Installed and **working**.\n');
  });
});
