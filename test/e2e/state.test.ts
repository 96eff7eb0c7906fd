/** What ochat remembers between runs, end to end: one-shot prompts stay out of the ↑ history. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

test('-p prompts and piped stdin are not stored in the input history', async () => {
  const home = mkdtempSync(join(tmpdir(), 'ochat-state-e2e-'));
  dirs.push(home);
  const env = {
    OLLAMA_HOST: emu.url,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
  };
  const result = await runOchat(['-m', 'llama3.2', '-p', 'secret prompt'], { env, input: 'piped secret\n' });
  expect(result.code).toBe(0);
  const files = readdirSync(home, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const text = readFileSync(join(file.parentPath, file.name), 'utf8');
    expect(text).not.toContain('secret prompt');
    expect(text).not.toContain('piped secret');
  }
});
