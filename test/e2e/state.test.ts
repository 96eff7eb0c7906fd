/**
 * What ochat remembers between runs, end to end: a corrupt state file is kept aside and said
 * once, and one-shot prompts (and piped stdin) stay out of the ↑ history.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';

let emu: Emulator;
const dirs: string[] = [];
beforeAll(async () => {
  emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
});
afterAll(async () => {
  await emu.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataHome(): { env: Record<string, string>; stateDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-state-e2e-'));
  dirs.push(dir);
  return { env: { OLLAMA_HOST: emu.url, XDG_DATA_HOME: dir }, stateDir: join(dir, 'ochat') };
}

test('a corrupt state file is kept aside, said once on stderr, and the run goes on', async () => {
  const { env, stateDir } = dataHome();
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, 'state.json'), '{"lastModel": "llama3.2", trunc');
  const result = await runOchat(['-m', 'llama3.2', '-p', 'hello'], { env });
  expect(result.code).toBe(0);
  expect(result.stdout).toBe('Echo: hello\n');
  const kept = readdirSync(stateDir).filter((name) => name.startsWith('state.json.corrupt-'));
  expect(kept).toHaveLength(1);
  expect(readFileSync(join(stateDir, kept[0]), 'utf8')).toBe('{"lastModel": "llama3.2", trunc');
  expect(result.stderr.match(/state file was not valid JSON/g)).toHaveLength(1);
  expect(result.stderr).toContain(kept[0]);
});

test('-p prompts and piped stdin are not stored in the input history', async () => {
  const { env, stateDir } = dataHome();
  const piped = 'x'.repeat(2_000);
  expect((await runOchat(['-m', 'llama3.2', '-p', 'secret prompt'], { env, input: piped })).code).toBe(0);
  for (const file of ['history.jsonl', 'state.json']) {
    const path = join(stateDir, file);
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      expect(text).not.toContain('secret prompt');
      expect(text).not.toContain('xxxxxxxx');
    }
  }
});
