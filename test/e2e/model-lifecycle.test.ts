/**
 * The local model's lifecycle over the built CLI in a PTY, colours on: pulling a missing model
 * (progress, errors, Ctrl+C mid-pull), the cold-load status, the spill warning, /ps, /unload,
 * keep_alive and truncate:false on the wire, and the refusal → compact → resend path.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { compactionResponder, conversationChats, summarizerChats } from '../support/compaction-summarizer.js';
import { type ChatRun, PROMPT_PLACEHOLDER, startChat, waitForChats } from '../support/e2e-chat.js';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { INPUT_TOO_LONG } from '../support/emulator-chat.js';
import { ALL_HOSTILE, HOSTILE_SEQUENCES } from '../support/hostile-text.js';
import { type PtySession, spawnOchat, wrapped } from '../support/pty-session.js';

const GB = 1_000_000_000;
const MB = 1_000_000;
/** 4 GB of weights and 64 kB of KV cache per token. */
const M1 = { name: 'm1:latest', size: 4 * GB, kvBytesPerToken: 64_000, trainedContext: 131072 };
/** 30 MB of weights at 10 MB/s: three seconds of progress with a rate and a time left. */
const TINY = { name: 'tiny:latest', layers: [30 * MB, 1_500, 96] };

let run: ChatRun | undefined;
let extra: { pty?: PtySession; emu?: Emulator; dir?: string } = {};

afterEach(async () => {
  await run?.close();
  run = undefined;
  await extra.pty?.dispose();
  await extra.emu?.close();
  if (extra.dir) rmSync(extra.dir, { recursive: true, force: true });
  extra = {};
});

/** Escape sequences ochat itself writes for colour: the coloured path is the one tested. */
const hasColour = (pty: PtySession) => /\u001b\[(3\d|9\d|2|1)(;\d+)*m/.test(pty.raw());

describe('pulling a model', () => {
  test('-m names a missing model: Pull tiny? (y/n), y shows ollama pull progress, then the chat opens on it', async () => {
    const emu = await startEmulator({ models: [M1], registry: [TINY], pullBytesPerSecond: 10 * MB });
    extra.emu = emu;
    const pty = spawnOchat(['-m', 'tiny'], { env: { OLLAMA_HOST: emu.url } });
    extra.pty = pty;
    await pty.waitFor('Pull tiny? (y/n)');
    await pty.answer('y');
    await pty.waitFor('pulling manifest');
    // A bar per layer with completed/total, percent, rate and time left, as ollama pull draws it.
    await pty.waitFor(/pulling [0-9a-f]{12}: +\d+% ▕█* *▏ +[\d.]+ MB\/30 MB +[\d.]+ MB\/s +\d+s/, 10_000);
    await pty.waitFor('Pulled tiny', 15_000);
    await pty.waitFor('num_ctx');
    await pty.waitFor(PROMPT_PLACEHOLDER);
    expect(hasColour(pty)).toBe(true);
    pty.write('hello\r');
    await pty.waitFor('Echo: hello');
    expect(emu.chats.at(-1)?.model).toBe('tiny:latest');
    // Tab completion of /model knows the new model.
    pty.write('/model ');
    await pty.waitFor('tiny:latest');
    pty.write('t');
    await pty.waitFor('› /model t');
    pty.write('\t');
    await pty.waitFor('› /model tiny:latest');
  }, 30_000);

  test('a one-shot exits 1 with the ollama pull line instead of asking', async () => {
    const emu = await startEmulator({ models: [M1], registry: [TINY] });
    extra.emu = emu;
    const result = await runOchat(['-m', 'tiny', '-p', 'hi'], { env: { OLLAMA_HOST: emu.url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ollama pull tiny');
    expect(emu.requests.some((r) => r.path === '/api/pull')).toBe(false);
  });

  test('/pull of an unknown name ends in one line naming it', async () => {
    run = await startChat({ models: [M1], args: ['-m', 'm1'] });
    run.pty.write('/pull nosuch\r');
    await run.pty.waitFor(wrapped('Cannot pull nosuch: pull model manifest: file does not exist'));
    expect(hasColour(run.pty)).toBe(true);
  });

  test('Ctrl+C mid-pull stops it at once; Ollama keeps the partial download and the next pull resumes', async () => {
    run = await startChat({ models: [M1], registry: [TINY], pullBytesPerSecond: 5 * MB, args: ['-m', 'm1'] });
    const { emu, pty } = run;
    pty.write('/pull tiny\r');
    await pty.waitFor(/pulling [0-9a-f]{12}: +([1-9]\d?)%/, 10_000);
    pty.write('\u0003');
    await pty.waitFor(wrapped('Stopped pulling tiny. Ollama keeps what was downloaded'), 3000);
    await expect.poll(() => emu.pullsAborted).toBe(1);
    pty.write('/pull tiny\r');
    await pty.waitFor('Pulled tiny', 15_000);
    await pty.waitFor('Switch to it with /model tiny');
  }, 30_000);

  test('line mode (TERM=dumb): plain progress lines, at most one a second, no escape sequences', async () => {
    const emu = await startEmulator({ models: [M1], registry: [TINY], pullBytesPerSecond: 10 * MB });
    extra.emu = emu;
    const pty = spawnOchat(['-m', 'm1'], { env: { OLLAMA_HOST: emu.url, TERM: 'dumb' } });
    extra.pty = pty;
    await pty.waitFor('>>> ');
    pty.write('/pull tiny\r');
    await pty.waitFor('Pulled tiny', 15_000);
    const progress = pty.screen().match(/^pulling tiny: \d+% \(.*\)$/gm) ?? [];
    // About three seconds of download: one line a second, not one per progress report.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.length).toBeLessThanOrEqual(5);
    expect(progress.some((line) => /MB\/s, \d+s left/.test(line))).toBe(true);
    expect(pty.raw()).not.toMatch(/\u001b\[/);
  }, 30_000);
});

describe('server strings pass the sanitizer', () => {
  test('a hostile pull error and a hostile model name in /ps reach the screen without their control sequences', async () => {
    const hostile = {
      // Model names are lowercased by the server: a title-setting OSC survives that unchanged.
      name: 'evil\x1b]0;pwn-osc0\x07\x9b6n:latest',
      size: GB,
    };
    run = await startChat({
      models: [M1, hostile],
      registry: [{ name: 'tiny', pullError: { afterBytes: 0, error: `disk full ${ALL_HOSTILE}` } }],
      args: ['-m', 'm1'],
    });
    const { pty } = run;
    pty.write('/pull tiny\r');
    await pty.waitFor('Cannot pull tiny: disk full');
    // Load the hostile model too, then list what is loaded.
    await fetch(`${run.emu.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: hostile.name, messages: [], stream: false }),
    });
    pty.write('/ps\r');
    await pty.waitFor('NAME').catch((error) => {
      console.log(pty.screen());
      throw error;
    });
    for (const sequence of HOSTILE_SEQUENCES)
      expect(pty.raw(), sequence.name).not.toContain(sequence.leak.toLowerCase());
    for (const sequence of HOSTILE_SEQUENCES) expect(pty.raw(), sequence.name).not.toContain(sequence.leak);
  }, 30_000);
});

describe('the model in memory', () => {
  test('a cold load says loading m1… N s in the status line, then loaded in N s', async () => {
    run = await startChat({ models: [M1], loadDelayMs: 2500, args: ['-m', 'm1'] });
    const { pty } = run;
    // The warm-up preload when the chat opens.
    await pty.waitFor(/loading m1… [12] s/, 5000);
    pty.write('/unload\r');
    await pty.waitFor(wrapped('Unloaded m1; the next message loads it again.'), 8000);
    pty.write('hello\r');
    await pty.waitFor(/loading m1… [12] s/, 5000);
    await pty.waitFor('Echo: hello', 8000);
    await pty.waitFor(/loaded in 2\.\d s/);
    expect(hasColour(pty)).toBe(true);
  }, 30_000);

  test('the spill warning after a num_ctx change, as ollama ps prints it, with the status mark and a window that fits', async () => {
    run = await startChat({ models: [M1], gpuMemory: 6 * GB, args: ['-m', 'm1', '--num-ctx', '8192'] });
    const { pty } = run;
    pty.write('hi\r');
    await pty.waitFor('Echo: hi');
    pty.write('/set num_ctx 131072\r');
    await pty.waitFor(
      wrapped(
        'm1 is 52%/48% CPU/GPU at num_ctx 131072 — replies will be slower; /set num_ctx 16384 fits the GPU.',
      ),
    );
    await pty.waitFor('52% CPU');
    pty.write('/ps\r');
    await pty.waitFor(/m1:latest +12 GB +52%\/48% CPU\/GPU +131072 +\d+ minutes from now/);
    expect(pty.screen()).toMatch(/NAME +SIZE +PROCESSOR +CONTEXT +UNTIL/);
    pty.write('/unload\r');
    await pty.waitFor('Unloaded m1');
    pty.write('/ps\r');
    await pty.waitFor('No model is loaded.');
  }, 30_000);
});

describe('on the wire', () => {
  test('keep_alive from the config and truncate:false go with every chat, preload and summarizer request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ochat-keepalive-'));
    extra.dir = dir;
    writeFileSync(join(dir, 'cfg.yml'), 'keep_alive: 45m\n');
    run = await startChat({
      models: [M1],
      args: ['-m', 'm1', '-c', join(dir, 'cfg.yml')],
      pty: { cwd: dir },
    });
    const { emu, pty } = run;
    for (const n of [1, 2, 3]) {
      pty.write(`first message ${n}: ${'words '.repeat(30)}\r`);
      await pty.waitFor(`Echo: first message ${n}`);
    }
    pty.write('/set keep_alive 2h\r');
    await pty.waitFor('keep_alive = "2h" (2h)');
    pty.write('second\r');
    await waitForChats(emu, 4);
    await pty.waitFor('Echo: second');
    pty.write('/compact\r');
    await pty.waitFor(/Compacted \d+ messages?/);
    expect(emu.loadRequests[0].body).toMatchObject({ keep_alive: '45m', messages: [] });
    const chats = conversationChats(emu);
    for (const chat of chats.slice(0, 3))
      expect(chat.body).toMatchObject({ keep_alive: '45m', truncate: false });
    expect(chats[3].body).toMatchObject({ keep_alive: '2h', truncate: false });
    expect(summarizerChats(emu)[0].body).toMatchObject({ keep_alive: '2h', truncate: false });
  }, 30_000);

  test('a prompt Ollama refuses as over num_ctx is compacted and sent again; refused again, it is kept', async () => {
    run = await startChat({ models: [M1], args: ['-m', 'm1'] });
    const { emu, pty } = run;
    for (const n of [1, 2, 3, 4]) {
      pty.write(`Message ${n}: ${'some words '.repeat(20)}\r`);
      await pty.waitFor(`Echo: Message ${n}`);
    }
    const refusal = { fault: { kind: 'http' as const, status: 400, error: INPUT_TOO_LONG } };
    emu.respondWith(compactionResponder({ chat: (_req, call) => (call === 1 ? refusal : undefined) }));
    pty.write('The last one.\r');
    await pty.waitFor(
      wrapped('Ollama refused the prompt: it does not fit num_ctx 8k. Compacting, then sending again.'),
    );
    await pty.waitFor(/Compacted \d+ messages/);
    await pty.waitFor('Echo: The last one.');
    emu.respondWith(compactionResponder({ chat: () => refusal }));
    pty.write('Too long still.\r');
    await pty.waitFor(wrapped('so Ollama refused it rather than cut it. Your message is kept.'), 8000);
    await pty.waitFor(wrapped('press Enter on an empty prompt to send it again'));
    emu.respondWith(undefined);
    pty.write('\r');
    await pty.waitFor('Echo: Too long still.');
    expect(hasColour(pty)).toBe(true);
  }, 30_000);
});
