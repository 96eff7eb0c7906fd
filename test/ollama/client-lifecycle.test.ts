/** OllamaClient's model lifecycle (pull, ps, load, unload) and truncate:false, against the emulator. */
import { afterEach, describe, expect, it } from 'vitest';
import type { PullProgress } from '../../src/backend/model-lifecycle.js';
import { OllamaClient } from '../../src/ollama/client.js';
import { AbortedError, ContextExceededError, PullFailedError } from '../../src/ollama/errors.js';
import { type Emulator, type EmulatorOptions, startEmulator } from '../support/emulator.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions = {}): Promise<{ emu: Emulator; client: OllamaClient }> {
  emulator = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY, ...options });
  return { emu: emulator, client: new OllamaClient({ host: emulator.url }) };
}

describe('pullModel', () => {
  it('reports every progress line until success, and the model is installed', async () => {
    const { client } = await start({
      registry: [{ name: 'tiny', layers: [5000, 100] }],
      pullBytesPerSecond: 40_000,
    });
    const seen: PullProgress[] = [];
    await client.pullModel('tiny', (progress) => seen.push(progress));
    expect(seen[0]).toEqual({ status: 'pulling manifest' });
    expect(seen.at(-1)).toEqual({ status: 'success' });
    const weights = seen.filter((p) => p.total === 5000);
    expect(weights[0].completed).toBe(0);
    expect(weights.at(-1)?.completed).toBe(5000);
    expect((await client.listModels()).map((m) => m.name)).toContain('tiny:latest');
  });

  it('rejects an error line with a PullFailedError naming the model', async () => {
    const { client } = await start();
    const error = await client.pullModel('nosuch', () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PullFailedError);
    expect(error).toMatchObject({
      kind: 'pull-failed',
      message: 'Cannot pull nosuch: pull model manifest: file does not exist',
    });
  });

  it('stops at once on abort: the request is closed, the server keeps the partial download', async () => {
    const { emu, client } = await start({
      registry: [{ name: 'tiny', layers: [100_000] }],
      pullBytesPerSecond: 20_000,
    });
    const abort = new AbortController();
    const pulling = client.pullModel(
      'tiny',
      (progress) => {
        if ((progress.completed ?? 0) > 0) abort.abort();
      },
      abort.signal,
    );
    await expect(pulling).rejects.toBeInstanceOf(AbortedError);
    await expect.poll(() => emu.pullsAborted).toBe(1);
  });
});

describe('runningModels, loadModel, unloadModel', () => {
  it('preloads with the window and keep_alive asked, lists it with its GPU share, and unloads it', async () => {
    const { emu, client } = await start({
      models: [{ name: 'm1', size: 1_000_000_000, kvBytesPerToken: 100_000 }],
      gpuMemory: 1_500_000_000,
    });
    const loaded = await client.loadModel({ model: 'm1', options: { num_ctx: 8192 }, keep_alive: '30m' });
    expect(loaded.doneReason).toBe('load');
    expect(emu.loadRequests[0].body).toMatchObject({
      messages: [],
      keep_alive: '30m',
      options: { num_ctx: 8192 },
    });
    const [running] = await client.runningModels();
    expect(running).toMatchObject({
      name: 'm1:latest',
      size: 1_000_000_000 + 8192 * 100_000,
      sizeVram: 1_500_000_000,
      contextLength: 8192,
    });
    expect(Date.parse(running.expiresAt ?? '') - Date.now()).toBeGreaterThan(29 * 60_000);
    await client.unloadModel('m1');
    expect(emu.loadRequests[1].body).toMatchObject({ messages: [], keep_alive: 0 });
    expect(await client.runningModels()).toEqual([]);
  });
});

describe('truncate: false', () => {
  it('is sent, and a prompt over num_ctx is refused as context-exceeded instead of cut', async () => {
    const { emu, client } = await start();
    const messages = [{ role: 'user' as const, content: 'word '.repeat(400) }];
    const error = await client
      .chat({ model: 'llama3.2', messages, options: { num_ctx: 256 }, truncate: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextExceededError);
    expect(error).toMatchObject({ kind: 'context-exceeded' });
    expect(emu.chats[0].body.truncate).toBe(false);
    expect(emu.chats[0].truncated).toBe(false);
  });
});
