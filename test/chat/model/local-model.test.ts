/**
 * The local model's life in the running chat (a ChatController against the emulator): warm-up,
 * the loading status, `loaded in`, the spill warning and its suggestion, /ps, /unload, and
 * `Pull <name>? (y/n)` for a model that is not installed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatController } from '../../../src/chat/chat-controller.js';
import type { NoticeItem } from '../../../src/chat/state/display-items.js';
import { OllamaClient } from '../../../src/ollama/client.js';
import { type ChatHarness, startChat } from '../../support/compaction-harness.js';
import { testControllerDeps } from '../../support/controller-deps.js';
import { type Emulator, type EmulatorOptions, startEmulator } from '../../support/emulator.js';

let emu: Emulator | undefined;
let chat: ChatHarness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  chat?.dispose();
  chat = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await emu?.close();
  emu = undefined;
});

const GB = 1_000_000_000;
/** 4 GB of weights, 64 kB of KV cache per token: 8k takes 4.5 GB, 128k takes 12.4 GB. */
const M1 = { name: 'm1:latest', size: 4 * GB, kvBytesPerToken: 64_000, trainedContext: 131072 };

async function open(options: EmulatorOptions, numCtx = 8192): Promise<ChatHarness> {
  emu = await startEmulator({ models: [M1], tokensPerSecond: Number.POSITIVE_INFINITY, ...options });
  chat = await startChat(emu, { model: 'm1', numCtx });
  return chat;
}

const noticeTexts = (h: ChatHarness) => h.notices().map((n) => n.text);

describe('warm-up', () => {
  it('preloads the model with the window and keep_alive the chat sends, showing loading… until ready', async () => {
    emu = await startEmulator({ models: [M1], loadDelayMs: 300 });
    const h = await startChat(emu, {
      model: 'm1',
      configure: (config) => {
        config.keep_alive = '1h';
      },
    });
    chat = h;
    expect(h.controller.store.get().loading?.model).toBe('m1');
    await h.until(() => h.controller.store.get().loading === undefined);
    expect(emu.loadRequests.map((r) => r.body)).toEqual([
      { model: 'm1', messages: [], options: { num_ctx: 8192 }, keep_alive: '1h', stream: true },
    ]);
    // The first message finds it loaded: no wait, no load time to report.
    await h.say('hi');
    expect(h.controller.store.get().lastStats).not.toMatch(/loaded in/);
  });

  it('is not sent in one-shot mode', async () => {
    emu = await startEmulator({ models: [M1], tokensPerSecond: Number.POSITIVE_INFINITY });
    chat = await startChat(emu, { model: 'm1', interactive: false });
    await chat.say('hi');
    expect(emu.loadRequests).toEqual([]);
    expect(emu.requests.some((r) => r.path === '/api/ps')).toBe(false);
  });
});

describe('a cold load', () => {
  it('says loading m1… while the reply waits, then loaded in N s', async () => {
    const h = await open({ loadDelayMs: 1300 });
    await h.until(() => h.controller.store.get().loading === undefined, 5000);
    await h.say('/unload');
    const seen: string[] = [];
    const stop = h.controller.store.subscribe(() => {
      const loading = h.controller.store.get().loading;
      if (loading) seen.push(loading.model);
    });
    await h.say('hello');
    stop();
    expect(seen).toContain('m1');
    expect(h.controller.store.get().loading).toBeUndefined();
    expect(h.controller.store.get().lastStats).toMatch(/^loaded in 1\.[3-9] s · /);
  });
});

describe('what num_ctx costs', () => {
  it('warns once when the model spills, as ollama ps prints it, with the largest window that fits', async () => {
    const h = await open({ gpuMemory: 6 * GB });
    await h.until(() => h.controller.store.get().loading === undefined);
    await h.say('hi');
    expect(h.controller.store.get().spill).toBeUndefined();
    await h.say('/set num_ctx 131072');
    await h.until(() => h.controller.store.get().spill !== undefined);
    // 4 GB + 131072 × 64 kB = 12.39 GB, 6 GB of it on the GPU: 52% on the CPU.
    expect(h.controller.store.get().spill).toBe('52% CPU');
    expect(noticeTexts(h)).toContain(
      'm1 is 52%/48% CPU/GPU at num_ctx 131072 — replies will be slower; /set num_ctx 16384 fits the GPU.',
    );
    await h.say('and now?');
    expect(noticeTexts(h).filter((t) => t.includes('CPU/GPU'))).toHaveLength(1);
    await h.say('/set num_ctx 16384');
    await h.until(() => h.controller.store.get().spill === undefined);
  });

  it('makes no suggestion when only the spilling window was measured', async () => {
    const h = await open({ gpuMemory: 6 * GB }, 131072);
    await h.until(() => h.controller.store.get().spill !== undefined);
    expect(noticeTexts(h)).toContain('m1 is 52%/48% CPU/GPU at num_ctx 131072 — replies will be slower.');
  });
});

describe('/ps and /unload', () => {
  it('lists the loaded model like ollama ps, and /unload frees it', async () => {
    const h = await open({ gpuMemory: 6 * GB }, 131072);
    await h.until(() => h.controller.store.get().loading === undefined);
    await h.say('/ps');
    const table = noticeTexts(h).at(-1)?.split('\n') ?? [];
    expect(table[0]).toMatch(/^NAME\s+SIZE\s+PROCESSOR\s+CONTEXT\s+UNTIL$/);
    expect(table[1]).toMatch(/^m1:latest\s+12 GB\s+52%\/48% CPU\/GPU\s+131072\s+(4|5) minutes from now$/);
    await h.say('/unload');
    expect(noticeTexts(h).at(-1)).toBe('Unloaded m1; the next message loads it again.');
    expect(emu?.loadRequests.at(-1)?.body).toMatchObject({ model: 'm1', messages: [], keep_alive: 0 });
    await h.say('/ps');
    expect(noticeTexts(h).at(-1)).toBe('No model is loaded.');
  });
});

describe('a model that is not installed', () => {
  async function startMissing(
    answer: string,
  ): Promise<{ controller: ChatController; notices: () => NoticeItem[] }> {
    emu = await startEmulator({
      models: [M1],
      registry: [{ name: 'tiny', layers: [4000, 100] }],
      pullBytesPerSecond: 40_000,
      tokensPerSecond: Number.POSITIVE_INFINITY,
    });
    const dir = mkdtempSync(join(tmpdir(), 'ochat-pull-'));
    dirs.push(dir);
    const controller = new ChatController(
      testControllerDeps(new OllamaClient({ host: emu.url }), dir, { flags: { model: 'tiny' } }),
    );
    const started = controller.start();
    await new Promise<void>((resolve) => {
      const check = () => {
        if (!controller.store.get().dialog) return;
        stop();
        resolve();
      };
      const stop = controller.store.subscribe(check);
      check();
    });
    expect(controller.store.get().dialog).toMatchObject({ kind: 'pull-model', question: 'Pull tiny?' });
    controller.answerDialog(answer);
    await started;
    const notices = () => controller.store.get().items.filter((i): i is NoticeItem => i.kind === 'notice');
    return { controller, notices };
  }

  it('asks Pull tiny? (y/n); y pulls it with progress and the chat opens on it', async () => {
    const { controller, notices } = await startMissing('y');
    expect(notices().map((n) => n.text)).toContain('Pulled tiny (4.1 kB).');
    expect(controller.store.get()).toMatchObject({ model: 'tiny', pull: undefined, busy: undefined });
    expect(controller.store.get().items.some((i) => i.kind === 'banner')).toBe(true);
    expect(emu?.requests.filter((r) => r.path === '/api/pull')).toHaveLength(1);
  });

  it('n leaves it, with the ollama pull line', async () => {
    const { controller, notices } = await startMissing('n');
    expect(notices().some((n) => n.level === 'error' && n.text.includes('ollama pull tiny'))).toBe(true);
    expect(emu?.requests.some((r) => r.path === '/api/pull')).toBe(false);
    expect(controller.store.get().items.some((i) => i.kind === 'banner')).toBe(false);
  });

  it('/pull of an unknown name says so in one line naming it', async () => {
    const h = await open({});
    await h.say('/pull nosuch');
    expect(noticeTexts(h)).toContain('Cannot pull nosuch: pull model manifest: file does not exist');
    expect(h.controller.store.get().pull).toBeUndefined();
  });
});
