/**
 * The output boundary end to end: hostile control sequences from the model, a tool call, the
 * server or a config file never reach the terminal, on every path (the Ink UI, a tool
 * confirmation, one-shot stdout and stderr, config errors). The built CLI, colours on.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, startChat } from '../support/e2e-chat.js';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import {
  ALL_HOSTILE,
  actingSequencesIn,
  controlCharactersIn,
  leakedSequences,
} from '../support/hostile-text.js';
import { E2E_TOOL_MODEL, startToolRun, type ToolRun } from '../support/tools-e2e.js';

let chat: ChatRun | undefined;
let tools: ToolRun | undefined;
let emu: Emulator | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await chat?.close();
  await tools?.close();
  await emu?.close();
  chat = tools = emu = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-hostile-'));
  dirs.push(dir);
  return dir;
}

describe('the interactive UI', () => {
  test('a reply with every hostile sequence, streamed in pieces that split them, leaks none', async () => {
    chat = await startChat();
    chat.emu.enqueue({ content: `Start ${ALL_HOSTILE} final marker`, tokensPerSecond: 400 });
    chat.pty.write('be nasty\r');
    await chat.pty.waitFor('final marker');
    await chat.pty.waitFor(/tok\/s/);
    expect(leakedSequences(chat.pty.raw())).toEqual([]);
    expect(actingSequencesIn(chat.pty.raw())).toEqual([]);
    expect(chat.pty.screen()).toContain('w9');
  });

  test('the tool confirmation shows the exact command, every control character visible; n runs nothing', async () => {
    tools = await startToolRun();
    const { emu, pty, cwd } = tools;
    const command = 'echo safe \x1b]2;x;touch HIDDEN-PWNED;\x07';
    emu.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command } }] },
      { content: 'Declined, fine.' },
    );
    pty.write('run it\r');
    await pty.waitFor('? Allow run_command echo safe ␛]2;x;touch HIDDEN-PWNED;␇?');
    expect(actingSequencesIn(pty.raw())).toEqual([]);
    await pty.answer('n');
    await pty.waitFor('Declined, fine.');
    expect(existsSync(join(cwd, 'HIDDEN-PWNED'))).toBe(false);
  });

  test('a confirmation of a command with every hostile sequence leaks none and hides nothing', async () => {
    tools = await startToolRun();
    const { emu, pty } = tools;
    emu.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: `notes ${ALL_HOSTILE}.txt`, content: 'x' } }] },
      { content: 'Declined again.' },
    );
    pty.write('write it\r');
    await pty.waitFor('? Allow write_file notes w0 ␛]0;pwn-osc0␇');
    // Every sequence is there to read, as symbols…
    for (const marker of ['␛]52;c;cHduLW9zYzUy␇', '␛[2J', '␛[13;17H', '␛P+qpwn-dcs␛\\', '<U+009B>6n'])
      expect(pty.screen().replace(/\n/g, '')).toContain(marker);
    // …and none of them acts.
    expect(actingSequencesIn(pty.raw())).toEqual([]);
    await pty.answer('n');
    await pty.waitFor('Declined again.');
  });
});

/** Bidi controls that can reorder what a terminal shows ("Trojan Source"), and the line separators. */
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
/** A text with each of them, separators between its lines, and the joiners emoji need. */
const BIDI_TEXT = `ids ${BIDI.map((c, i) => `b${i}${c}x`).join(' ')} end\u2028second line\u2029third line 👩\u200d💻 done`;

/** The bidi controls and separators that reached the terminal raw. */
function rawBidi(raw: string): string[] {
  return [...raw.matchAll(/[\u202a-\u202e\u2066-\u2069\u2028\u2029]/g)].map(
    (m) => `U+${m[0].charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

describe('bidi controls', () => {
  test('in a reply and its thinking: shown as <U+202E>, separators as line breaks, joiners kept', async () => {
    chat = await startChat({
      models: [{ name: 'qwen3:latest', family: 'qwen3', capabilities: ['completion', 'thinking'] }],
      args: ['-m', 'qwen3'],
    });
    chat.emu.enqueue({
      thinking: `thought ${BIDI_TEXT}`,
      content: `Reply ${BIDI_TEXT}`,
      tokensPerSecond: 400,
    });
    chat.pty.write('show me\r');
    await chat.pty.waitFor(/tok\/s/);
    chat.pty.write('\x14'); // Ctrl+T shows the thinking
    await chat.pty.waitFor('thought ids b0<U+202A>x');
    expect(rawBidi(chat.pty.raw())).toEqual([]);
    const screen = chat.pty.screen();
    expect(screen).toContain('b4<U+202E>x');
    expect(screen).toContain('b8<U+2069>x');
    expect(screen).toMatch(/end\n\s*second line\n\s*third line/);
    expect(chat.pty.raw()).toContain('👩\u200d💻');
  });

  test('in one-shot stdout: shown as <U+202E>, separators as line breaks', async () => {
    emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
    emu.enqueue({ content: `Reply ${BIDI_TEXT}` });
    const result = await runOchat(['-m', 'llama3.2', '-p', 'hi'], { env: { OLLAMA_HOST: emu.url } });
    expect(result.code).toBe(0);
    expect(rawBidi(result.stdout)).toEqual([]);
    expect(result.stdout).toContain('b4<U+202E>x');
    expect(result.stdout).toContain('end\nsecond line\nthird line 👩\u200d💻 done');
  });
});

describe('one-shot mode (-p)', () => {
  test('stdout and stderr (tool lines included) carry text only', async () => {
    tools = await startToolRun({ args: ['-p', 'go'], oneShot: true });
    const { emu, pty } = tools;
    emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: `missing ${ALL_HOSTILE}.txt` } }] },
      { content: `Reply ${ALL_HOSTILE} done.` },
    );
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toContain('✗ read_file missing w0');
    expect(pty.screen()).toContain('done.');
    expect(leakedSequences(pty.raw())).toEqual([]);
    expect(controlCharactersIn(pty.raw().replace(/\r\n/g, '\n'))).toEqual([]);
  });

  test('model names from /api/tags under "Installed:" carry text only', async () => {
    emu = await startEmulator({
      models: HOSTILE_NAMES.map((name) => ({ name })),
      tokensPerSecond: Number.POSITIVE_INFINITY,
    });
    const result = await runOchat(['-m', 'nope', '-p', 'hi'], { env: { OLLAMA_HOST: emu.url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Installed:');
    // Like Ollama, the emulator lowercases names: ESC P (DCS) becomes a harmless ESC p, whose
    // payload then shows as text. What matters: nothing that acts, no control character.
    expect(actingSequencesIn(result.stderr)).toEqual([]);
    expect(controlCharactersIn(result.stderr.replace(/\n/g, ''))).toEqual([]);
  });
});

// One model name per hostile sequence.
const HOSTILE_NAMES = ALL_HOSTILE.split(' w').map((part, i) => `m${i}${part}:latest`);

describe('config errors', () => {
  test('an unknown key and a bad host are echoed as text only, exit 2', async () => {
    const dir = tempDir();
    for (const [yaml, expected] of [
      [`"bad${ALL_HOSTILE}key": 1\n`, /bad/],
      [`host: "http://ex${ALL_HOSTILE}ample"\n`, /host/],
    ] as const) {
      const file = join(dir, 'config.yml');
      writeFileSync(file, yaml);
      const result = await runOchat(['-c', file, '-m', E2E_TOOL_MODEL, '-p', 'hi']);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(expected);
      expect(leakedSequences(result.stderr)).toEqual([]);
      expect(controlCharactersIn(result.stderr.replace(/\n/g, ''))).toEqual([]);
    }
  });
});
