/**
 * README's first command, `npm start -- -m llama3.2`, end to end: npm itself in a PTY (colours on,
 * no CI variable) running scripts/start.mjs, which builds dist/ only when its build id changed and
 * erases npm's banner before the chat draws.
 */
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations.
import { isBuildCurrent } from '../../scripts/build-id.mjs';
import { PROMPT_PLACEHOLDER } from '../support/e2e-chat.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { type PtySession, spawnOchat } from '../support/pty-session.js';

const root = resolve(import.meta.dirname, '../..');
/** npm's own entry script, run by this Node in the PTY. */
const npmCli = join(
  dirname(realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim())),
  'npm-cli.js',
);
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

let pty: PtySession | undefined;
let emu: Emulator | undefined;
const places: string[] = [];
afterEach(async () => {
  await pty?.dispose();
  await emu?.close();
  pty = undefined;
  emu = undefined;
  for (const dir of places.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function npm(args: string[], cwd: string, env: Record<string, string> = {}): PtySession {
  // The update notifier would ask the registry, and print over the test's screen.
  const quiet = { npm_config_update_notifier: 'false' };
  return spawnOchat(args, { script: npmCli, cwd, cols: 100, rows: 30, env: { ...quiet, ...env } });
}

describe('npm start', () => {
  test("with nothing changed since the build it opens the chat without building, npm's banner erased", async () => {
    // The suite runs over a fresh build (npm test builds first); by hand, build first.
    expect(isBuildCurrent(root), 'dist/ is older than the sources: run npm run build first').toBe(true);
    const built = statSync(join(root, 'dist/ochat.cjs')).mtimeMs;
    emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
    pty = npm(['start', '--', '-m', 'llama3.2'], root, { OLLAMA_HOST: emu.url });
    await pty.waitFor(PROMPT_PLACEHOLDER, 20_000);
    const screen = pty.screen();
    expect(screen).toContain('llama3.2');
    expect(screen).not.toContain(`> ochat@${version} start`);
    expect(screen).not.toContain('scripts/start.mjs');
    expect(screen).not.toContain('Building');
    expect(statSync(join(root, 'dist/ochat.cjs')).mtimeMs).toBe(built);
    pty.write('/quit\r');
    expect(await pty.exited).toBe(0);
  }, 40_000);

  test('from a fresh clone it builds first, then not again until a source changes', async () => {
    const clone = mkdtempSync(join(tmpdir(), 'ochat-clone-'));
    places.push(clone);
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
    for (const file of tracked.filter(Boolean)) {
      if (existsSync(join(root, file))) cpSync(join(root, file), join(clone, file));
    }
    // What `npm ci` would install, hard-linked (a symbolic link would put the packages outside the tree).
    execFileSync('cp', ['-al', join(root, 'node_modules'), join(clone, 'node_modules')]);
    expect(isBuildCurrent(clone)).toBe(false);

    pty = npm(['start', '--', '--version'], clone);
    expect(await pty.exited).toBe(0);
    // Said while it builds; a build that said nothing more is erased with npm's banner.
    expect(pty.raw()).toContain('Building ochat (its sources changed since dist/ was built)…');
    expect(pty.screen().trim()).toBe(version);
    expect(isBuildCurrent(clone)).toBe(true);
    await pty.dispose();

    pty = npm(['start', '--', '--version'], clone);
    expect(await pty.exited).toBe(0);
    expect(pty.screen().trim()).toBe(version);

    appendFileSync(join(clone, 'src/text/shorten.ts'), '// changed\n');
    expect(isBuildCurrent(clone)).toBe(false);
  }, 120_000);
});
