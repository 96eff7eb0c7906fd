import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chooseModel, connectModel, NoModelChosenError } from '../../../src/chat/request/model-selection.js';
import { DEFAULT_NUM_CTX } from '../../../src/chat/request/num-ctx.js';
import { OllamaClient } from '../../../src/ollama/client.js';
import { ModelNotFoundError } from '../../../src/ollama/errors.js';
import { type Emulator, startEmulator } from '../../support/emulator.js';

describe('chooseModel', () => {
  const never = vi.fn(async () => {
    throw new Error('must not ask the server');
  });

  it('prefers -m, then config, then the last used, without asking the server', async () => {
    expect(await chooseModel({ flag: 'a', config: 'b', lastUsed: 'c' }, never)).toBe('a');
    expect(await chooseModel({ config: 'b', lastUsed: 'c' }, never)).toBe('b');
    expect(await chooseModel({ lastUsed: 'c' }, never)).toBe('c');
    expect(never).not.toHaveBeenCalled();
  });

  it('takes the only installed model', async () => {
    expect(await chooseModel({}, async () => [{ name: 'qwen3:latest' }])).toBe('qwen3:latest');
  });

  it('says how to install one when none is installed', async () => {
    const failure = chooseModel({}, async () => []);
    await expect(failure).rejects.toBeInstanceOf(NoModelChosenError);
    await expect(failure).rejects.toThrow(/ollama pull/);
  });

  it('on an OpenAI-compatible server with no model, says how that server is given one, never ollama pull', async () => {
    const lmStudio = chooseModel({}, async () => [], { api: 'openai', name: 'LM Studio' });
    await expect(lmStudio).rejects.toThrow(
      'LM Studio serves no model (its /v1/models list is empty): load one in LM Studio (lms load <model>), then run ochat again.',
    );
    const other = chooseModel({}, async () => [], { api: 'openai', name: 'the server' });
    await expect(other).rejects.toThrow(
      /^The server serves no model .*: load or serve one there \(llama-server -m model\.gguf, vllm serve <model>, lms load <model>\), then run ochat again\.$/,
    );
    await expect(other).rejects.not.toThrow(/ollama/);
  });

  it('lists the installed models when it cannot choose', async () => {
    const failure = chooseModel({}, async () => [{ name: 'qwen3:latest' }, { name: 'llama3.2:latest' }]);
    await expect(failure).rejects.toThrow(/-m <name>[\s\S]*qwen3:latest\n {2}llama3\.2:latest$/);
  });
});

describe('connectModel (against the emulator)', () => {
  let emu: Emulator;
  let client: OllamaClient;

  beforeAll(async () => {
    emu = await startEmulator({
      models: [
        { name: 'plain:latest' },
        { name: 'tuned:latest', numCtxParam: 16384, capabilities: ['completion', 'tools', 'thinking'] },
        { name: 'small:latest', trainedContext: 4096 },
      ],
      tokensPerSecond: Number.POSITIVE_INFINITY,
    });
    client = new OllamaClient({ host: emu.url });
  });
  afterAll(() => emu.close());

  it('uses the default window when nothing sets one', async () => {
    const session = await connectModel(client, 'plain', {});
    expect(session).toMatchObject({ name: 'plain', numCtx: DEFAULT_NUM_CTX, numCtxSource: 'default' });
    expect(session.cappedFrom).toBeUndefined();
  });

  it('reads the Modelfile num_ctx and the capabilities', async () => {
    const session = await connectModel(client, 'tuned', {});
    expect(session.numCtx).toBe(16384);
    expect(session.numCtxSource).toBe('modelfile');
    expect(session.info.capabilities).toEqual(expect.arrayContaining(['tools', 'thinking']));
  });

  it('lets the flag beat the config and the config beat the Modelfile', async () => {
    expect((await connectModel(client, 'tuned', { flag: 2048, config: 4096 })).numCtx).toBe(2048);
    const fromConfig = await connectModel(client, 'tuned', { config: 4096 });
    expect(fromConfig).toMatchObject({ numCtx: 4096, numCtxSource: 'config' });
  });

  it('caps the window at the trained maximum and says from what', async () => {
    const session = await connectModel(client, 'small', { flag: 32768 });
    expect(session).toMatchObject({ numCtx: 4096, numCtxSource: 'flag', cappedFrom: 32768 });
  });

  it('fails with ModelNotFoundError for a model that is not installed', async () => {
    await expect(connectModel(client, 'nope', {})).rejects.toBeInstanceOf(ModelNotFoundError);
  });
});
