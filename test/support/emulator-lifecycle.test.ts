import { request } from 'node:http';
import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from './emulator.js';
import { INPUT_TOO_LONG } from './emulator-chat.js';
import { decodeKeepAlive } from './emulator-duration.js';
import { DEFAULT_LAYERS, layerDigest, PULL_NOT_FOUND } from './emulator-pull.js';

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function start(options: EmulatorOptions): Promise<{ emu: Emulator; client: Ollama }> {
  emu = await startEmulator(options);
  return { emu, client: new Ollama({ host: emu.url }) };
}

/** POSTs JSON and returns the status and the NDJSON lines of the answer. */
async function post(
  url: string,
  body: unknown,
): Promise<{ status: number; lines: Record<string, unknown>[] }> {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
  const text = await response.text();
  const lines = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { status: response.status, lines };
}

const TINY = { name: 'tiny:latest', layers: [3000, 200, 50] };

describe('/api/pull', () => {
  it('streams the manifest, each layer from completed 0 to its total, then verifying…success, and installs the model', async () => {
    const { emu, client } = await start({ registry: [TINY], pullBytesPerSecond: 20_000 });
    const { status, lines } = await post(`${emu.url}/api/pull`, { model: 'tiny' });
    expect(status).toBe(200);
    expect(lines[0]).toEqual({ status: 'pulling manifest' });
    const statuses = lines.map((line) => line.status);
    expect(statuses.slice(-4)).toEqual([
      'verifying sha256 digest',
      'writing manifest',
      'removing unused layers',
      'success',
    ]);
    for (const [index, total] of TINY.layers.entries()) {
      const digest = layerDigest('tiny:latest', index);
      const layer = lines.filter((line) => line.digest === digest);
      expect(layer[0]).toEqual({ status: `pulling ${digest.slice(7, 19)}`, digest, total, completed: 0 });
      expect(layer.at(-1)?.completed).toBe(total);
      const completed = layer.map((line) => Number(line.completed));
      expect(completed).toEqual([...completed].sort((a, b) => a - b));
    }
    // 3000 bytes at 20 kB/s in 50 ms steps: progress in several lines, not one jump.
    expect(lines.filter((line) => line.digest === layerDigest('tiny:latest', 0)).length).toBeGreaterThan(2);
    expect((await client.list()).models.map((model) => model.name)).toContain('tiny:latest');
  });

  it('ends an unknown name with one error line after the manifest line', async () => {
    const { emu } = await start({});
    const { status, lines } = await post(`${emu.url}/api/pull`, { model: 'nosuch' });
    expect(status).toBe(200);
    expect(lines).toEqual([{ status: 'pulling manifest' }, { error: PULL_NOT_FOUND }]);
  });

  it('refuses fields of the wrong JSON type as Go does', async () => {
    const { emu } = await start({ registry: [TINY] });
    const wrongModel = await post(`${emu.url}/api/pull`, { model: 5 });
    expect(wrongModel).toEqual({
      status: 400,
      lines: [
        { error: 'json: cannot unmarshal number into Go struct field PullRequest.model of type string' },
      ],
    });
    expect((await post(`${emu.url}/api/pull`, { model: 'tiny', stream: 'yes' })).status).toBe(400);
    expect((await post(`${emu.url}/api/pull`, {})).lines).toEqual([{ error: 'model is required' }]);
  });

  it('keeps the bytes of a pull whose client went away, and the next pull resumes from them', async () => {
    const { emu, client } = await start({ registry: [TINY], pullBytesPerSecond: 10_000 });
    await new Promise<void>((resolve, reject) => {
      const req = request(`${emu.url}/api/pull`, { method: 'POST' }, (res) => {
        res.on('data', (chunk: Buffer) => {
          // Leave once the weights layer has made some progress.
          if (/"completed":[1-9]/.test(chunk.toString())) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', () => {});
      req.end(JSON.stringify({ model: 'tiny' }));
      setTimeout(() => reject(new Error('no progress')), 2000);
    });
    await expect.poll(() => emu.pullsAborted).toBe(1);
    expect((await client.list()).models.map((model) => model.name)).not.toContain('tiny:latest');
    const { lines } = await post(`${emu.url}/api/pull`, { model: 'tiny' });
    const weights = lines.filter((line) => line.digest === layerDigest('tiny:latest', 0));
    expect(weights[0].completed).toBe(0);
    expect(Number(weights[1].completed)).toBeGreaterThan(0);
    expect(lines.at(-1)).toEqual({ status: 'success' });
  });

  it('fails mid-pull with the scripted error line (disk full)', async () => {
    const error = 'write /root/.ollama/models/blobs/sha256-x-partial: no space left on device';
    const { emu } = await start({
      registry: [{ ...TINY, pullError: { afterBytes: 1000, error } }],
      pullBytesPerSecond: 20_000,
    });
    const { lines } = await post(`${emu.url}/api/pull`, { model: 'tiny' });
    expect(lines.at(-1)).toEqual({ error });
    expect(lines.some((line) => line.status === 'success')).toBe(false);
  });

  it('answers stream:false with one success object', async () => {
    const { emu } = await start({ registry: [{ name: 'tiny' }] });
    expect(await post(`${emu.url}/api/pull`, { model: 'tiny', stream: false })).toEqual({
      status: 200,
      lines: [{ status: 'success' }],
    });
    expect(DEFAULT_LAYERS.length).toBeGreaterThan(1);
  });
});

describe('/api/ps and GPU memory', () => {
  const M1 = { name: 'm1', size: 2_000_000_000, kvBytesPerToken: 16_384 };

  it('grows size with num_ctx, and size_vram stops at the GPU memory', async () => {
    const { client } = await start({ models: [M1], gpuMemory: 2_500_000_000 });
    await client.chat({
      model: 'm1',
      messages: [{ role: 'user', content: 'x' }],
      options: { num_ctx: 8192 },
    });
    const small = (await client.ps()).models[0] as unknown as {
      size: number;
      size_vram: number;
      context_length: number;
    };
    expect(small).toMatchObject({ size: 2_000_000_000 + 8192 * 16_384, context_length: 8192 });
    expect(small.size_vram).toBe(small.size);
    await client.chat({
      model: 'm1',
      messages: [{ role: 'user', content: 'x' }],
      options: { num_ctx: 65536 },
    });
    const big = (await client.ps()).models[0] as unknown as {
      size: number;
      size_vram: number;
      context_length: number;
    };
    expect(big).toMatchObject({ size: 2_000_000_000 + 65536 * 16_384, size_vram: 2_500_000_000 });
    expect(big.context_length).toBe(65536);
  });

  it('sets expires_at from keep_alive, forever when negative, and drops a model after keep_alive 0', async () => {
    const { client } = await start({ models: [M1] });
    const chat = (keep_alive: string | number) =>
      client.chat({ model: 'm1', messages: [{ role: 'user', content: 'x' }], keep_alive });
    await chat('2h');
    const expires = new Date((await client.ps()).models[0].expires_at).getTime();
    expect(expires - Date.now()).toBeGreaterThan(119 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(120 * 60_000);
    await chat(-1);
    expect(new Date((await client.ps()).models[0].expires_at).getFullYear()).toBe(2262);
    await chat(0);
    expect((await client.ps()).models).toEqual([]);
  });
});

describe('loading and unloading', () => {
  it('waits the cold-load delay before the first byte and reports it as load_duration; a warm model does not', async () => {
    const { client } = await start({ loadDelayMs: 300 });
    const ask = async () => {
      const started = performance.now();
      const reply = await client.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] });
      return { ms: performance.now() - started, loadNs: reply.load_duration };
    };
    const cold = await ask();
    expect(cold.ms).toBeGreaterThanOrEqual(290);
    expect(cold.loadNs).toBeGreaterThanOrEqual(290e6);
    const warm = await ask();
    expect(warm.loadNs).toBeLessThan(100e6);
  });

  it('preloads on empty messages (done_reason load) and unloads on keep_alive 0 (done_reason unload)', async () => {
    const { emu, client } = await start({ loadDelayMs: 100 });
    const load = await client.chat({ model: 'llama3.2', messages: [], options: { num_ctx: 4096 } });
    expect(load).toMatchObject({ done: true, done_reason: 'load' });
    expect(
      (await client.ps()).models.map(
        (model) => (model as unknown as { context_length: number }).context_length,
      ),
    ).toEqual([4096]);
    expect(emu.loads).toBe(1);
    const unload = await client.chat({ model: 'llama3.2', messages: [], keep_alive: 0 });
    expect(unload).toMatchObject({ done: true, done_reason: 'unload' });
    expect((await client.ps()).models).toEqual([]);
  });
});

describe('truncate and keep_alive on the wire', () => {
  const long = [
    { role: 'user', content: 'word '.repeat(300) },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: 'again' },
  ];

  it('refuses a prompt over num_ctx with truncate:false instead of cutting it', async () => {
    const { emu } = await start({});
    const refused = await post(`${emu.url}/api/chat`, {
      model: 'llama3.2',
      messages: long,
      options: { num_ctx: 128 },
      truncate: false,
    });
    expect(refused).toEqual({ status: 400, lines: [{ error: INPUT_TOO_LONG }] });
    expect(INPUT_TOO_LONG).toMatch(/input length exceeds the context length/);
    // Without the field, the old silent truncation.
    const cut = await post(`${emu.url}/api/chat`, {
      model: 'llama3.2',
      messages: long,
      options: { num_ctx: 128 },
    });
    expect(cut.status).toBe(200);
    expect(emu.chats[1].truncated).toBe(true);
  });

  it('decodes truncate and keep_alive as Go does: wrong types are a 400', async () => {
    const { emu } = await start({});
    const base = { model: 'llama3.2', messages: [{ role: 'user', content: 'x' }] };
    expect(await post(`${emu.url}/api/chat`, { ...base, truncate: 'false' })).toEqual({
      status: 400,
      lines: [
        { error: 'json: cannot unmarshal string into Go struct field ChatRequest.truncate of type bool' },
      ],
    });
    expect((await post(`${emu.url}/api/chat`, { ...base, keep_alive: true })).lines).toEqual([
      { error: "Unsupported type: 'bool'" },
    ]);
    expect((await post(`${emu.url}/api/chat`, { ...base, keep_alive: '30' })).lines).toEqual([
      { error: 'time: missing unit in duration "30"' },
    ]);
    expect((await post(`${emu.url}/api/chat`, { ...base, keep_alive: '1h30m', stream: false })).status).toBe(
      200,
    );
  });

  it('reads Go durations: seconds, units, negative forever', () => {
    expect(decodeKeepAlive('30m')).toEqual({ ok: true, ms: 1_800_000 });
    expect(decodeKeepAlive(90)).toEqual({ ok: true, ms: 90_000 });
    expect(decodeKeepAlive(-1)).toEqual({ ok: true, ms: Infinity });
    expect(decodeKeepAlive('-1s')).toEqual({ ok: true, ms: Infinity });
    expect(decodeKeepAlive('0')).toEqual({ ok: true, ms: 0 });
    expect(decodeKeepAlive('5 m').ok).toBe(false);
  });
});
