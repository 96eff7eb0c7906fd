/**
 * The built CLI against OpenAI-compatible servers (the emulator in each engine's shapes): found at
 * `--host` without being told, the window read where the engine publishes it, tool calls streamed
 * in pieces run and answered by their id, reasoning shown as thinking, compaction at a small
 * window with no request refused, and a window given too large learnt from the refusal.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { isSummarizerRequest, keepWhatItIsShown } from '../support/compaction-summarizer.js';
import { PROMPT_PLACEHOLDER, placeForRuns, removePlaces } from '../support/e2e-chat.js';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import {
  type OpenAiChatRecord,
  type OpenAiEmulator,
  type OpenAiEmulatorOptions,
  startOpenAiEmulator,
} from '../support/openai-emulator.js';
import { type PtySession, spawnOchat } from '../support/pty-session.js';
import { waitUntil } from '../support/wait-until.js';

let emu: OpenAiEmulator | undefined;
let pty: PtySession | undefined;

afterEach(async () => {
  await pty?.dispose();
  await emu?.close();
  pty = undefined;
  emu = undefined;
  removePlaces();
});

async function startServerAndChat(
  options: OpenAiEmulatorOptions,
  args: string[] = [],
  cwd?: string,
  env: Record<string, string> = {},
) {
  emu = await startOpenAiEmulator(options);
  pty = spawnOchat(['--host', emu.url, ...args], { cwd, cols: 140, env });
  await pty.waitFor(PROMPT_PLACEHOLDER);
  return { emu, pty };
}

/** The chat's own requests (not the summarizer's). */
function conversation(server: OpenAiEmulator): OpenAiChatRecord[] {
  return server.chats.filter((chat) => !isSummarizerRequest(chat));
}

describe('OpenAI-compatible servers', () => {
  test('vLLM: found at --host, its window from max_model_len, a streamed tool call runs and its result goes back by id, reasoning shows as thinking', async () => {
    const { cwd } = placeForRuns('ochat-openai-');
    writeFileSync(join(cwd, 'notes.txt'), 'The launch code is FACT-tulip.\n');
    const { emu, pty } = await startServerAndChat(
      { engine: 'vllm', models: [{ id: 'Qwen/Qwen3-8B', window: 16384 }] },
      [],
      cwd,
    );
    // The only model is taken; the banner says where the window came from.
    await pty.waitFor('num_ctx 16384 (16k) from vLLM /v1/models max_model_len');
    // The status line too, after the meter, in a word.
    await pty.waitFor(/Qwen\/Qwen3-8B · \d+\/16k \(\d+%\) max_model_len/);
    expect(emu.requests.slice(0, 2).map((r) => r.path)).toEqual(['/api/version', '/v1/models']);

    const thinking = 'The user wants the notes; I will read the file.';
    emu.enqueue(
      { thinking, toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { content: 'The code is FACT-tulip.' },
    );
    pty.write('What do my notes say?\r');
    await pty.waitFor('The code is FACT-tulip.');
    expect(pty.screen()).toContain(`Thought for ${thinking.length} chars`);

    const [first, second] = conversation(emu);
    expect(first.error).toBeUndefined();
    expect(second.error).toBeUndefined();
    const sent = second.body.messages;
    const call = sent.at(-2);
    const result = sent.at(-1);
    expect(call.role).toBe('assistant');
    expect(call.tool_calls).toHaveLength(1);
    expect(call.tool_calls[0].function).toEqual({ name: 'read_file', arguments: '{"path":"notes.txt"}' });
    expect(result).toMatchObject({ role: 'tool', tool_call_id: call.tool_calls[0].id });
    expect(result.content).toContain('FACT-tulip');
    // The reasoning is shown, never sent back.
    expect(JSON.stringify(sent)).not.toContain(thinking);

    pty.write('/context\r');
    await pty.waitFor('Context window: 16k tokens (from vLLM /v1/models max_model_len)');

    // The session records the server it talked to.
    const sessions = join(pty.home, 'data', 'ochat', 'sessions');
    const file = readdirSync(sessions, { recursive: true }).find((name) => String(name).endsWith('.jsonl'));
    const header = JSON.parse(readFileSync(join(sessions, String(file)), 'utf8').split('\n')[0]);
    expect(header.server).toEqual({ api: 'openai', name: 'vLLM', url: emu.url });
    expect(header.model).toBe('Qwen/Qwen3-8B');
  });

  test('llama-server at 2048: a long chat is compacted several times and no request is refused', async () => {
    const { emu, pty } = await startServerAndChat({
      engine: 'llama-server',
      models: [{ id: 'tiny', window: 2048 }],
    });
    await pty.waitFor('num_ctx 2048 (2k) from llama-server /props n_ctx');
    emu.respondWith((record) =>
      isSummarizerRequest(record)
        ? { content: keepWhatItIsShown(record).content }
        : { content: `${'word '.repeat(120).trim()} END.` },
    );
    for (let n = 1; n <= 12; n++) {
      pty.write(`Turn ${n}: remember FACT-t${n}. ${'filler '.repeat(40)}\r`);
      await waitUntil(
        `reply ${n}`,
        () => conversation(emu).length >= n && !pty!.screen().includes('waiting'),
        {
          timeoutMs: 20_000,
        },
      );
      await pty.waitFor(PROMPT_PLACEHOLDER);
    }
    const summaries = emu.chats.filter((chat) => isSummarizerRequest(chat));
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    expect(emu.chats.filter((chat) => chat.error)).toEqual([]);
    expect(Math.max(...emu.chats.map((chat) => chat.promptTokens))).toBeLessThanOrEqual(2048);
  }, 120_000);

  test('--num-ctx 8192 against a 2048 llama-server: the refusal is learnt, said, compacted and the message sent again', async () => {
    const { emu, pty } = await startServerAndChat(
      { engine: 'llama-server', models: [{ id: 'tiny', window: 2048 }] },
      ['--num-ctx', '8192'],
    );
    await pty.waitFor('num_ctx 8192');
    await pty.waitFor(/tiny · \d+\/8k \(\d+%\) --num-ctx/);
    emu.respondWith((record) =>
      isSummarizerRequest(record)
        ? { content: keepWhatItIsShown(record).content }
        : { content: `${'word '.repeat(100).trim()} END.` },
    );
    // Each turn is ~400 tokens: under 8192 nothing compacts, and the fifth passes 2048.
    for (let n = 1; n <= 5; n++) {
      pty.write(`Turn ${n}: FACT-n${n}. ${'filler '.repeat(150)}\r`);
      await waitUntil(`turn ${n} answered`, () => conversation(emu).filter((c) => !c.error).length >= n, {
        timeoutMs: 20_000,
      });
    }
    await pty.waitFor("llama-server's window is 2k, not 8k");
    await pty.waitFor(/tiny · \S+\/2k \(\d+%\) learnt from refusal/);
    const refused = emu.chats.filter((chat) => chat.error);
    expect(refused).toHaveLength(1);
    expect(refused[0].error?.message).toMatch(/exceeds the available context size \(2048 tokens\)/);
    // Compacted, then sent again: the message typed is in the request that was answered.
    const answered = conversation(emu).filter((c) => !c.error);
    expect(JSON.stringify(answered.at(-1)!.body.messages)).toContain('Turn 5: FACT-n5.');
    expect(emu.chats.some((chat) => isSummarizerRequest(chat))).toBe(true);
    pty.write('/context\r');
    await pty.waitFor("Context window: 2k tokens (from the server's refusal of a longer prompt)");
  }, 120_000);

  test("LiteLLM with a key: sent as a Bearer token; Ollama's own commands say plainly the server has none", async () => {
    const { emu, pty } = await startServerAndChat(
      { engine: 'litellm', apiKey: 'sk-team', models: [{ id: 'gpt-oss-120b', window: 32768 }] },
      [],
      undefined,
      { OCHAT_API_KEY: 'sk-team' },
    );
    await pty.waitFor('from LiteLLM /model/info max_input_tokens');
    expect(new Set(emu.chats.map((c) => c.authorization))).toEqual(new Set());
    pty.write('hello\r');
    await pty.waitFor('Echo: hello');
    expect(emu.chats[0].authorization).toBe('Bearer sk-team');
    pty.write('/ps\r');
    await pty.waitFor("/ps is Ollama's: LiteLLM at");
    pty.write('/set keep_alive 5m\r');
    await pty.waitFor("keep_alive is Ollama's: LiteLLM keeps its model loaded");
    pty.write('/unload\r');
    await pty.waitFor("/unload is Ollama's");
    // No preload and no /api/ps: the one chat request is the message's.
    const paths = emu.requests.map((r) => r.path);
    expect(
      paths.filter((p) => p.startsWith('/api/') && p !== '/api/version' && p !== '/api/v0/models'),
    ).toEqual([]);
    expect(paths.filter((p) => p === '/v1/chat/completions')).toHaveLength(1);
    expect(JSON.stringify(emu.chats[0].body)).not.toContain('keep_alive');
  });

  test('a slow first token is shown as the prompt being read; a 429 is said and asked again', async () => {
    const { emu, pty } = await startServerAndChat({ engine: 'vllm' });
    await pty.waitFor('from vLLM /v1/models max_model_len');
    emu.enqueue({ content: 'Slow but here.', firstByteDelayMs: 2500 });
    pty.write('first\r');
    await pty.waitFor('vLLM is reading the prompt…');
    await pty.waitFor('Slow but here.');
    emu.enqueue(
      { fault: { kind: 'http', status: 429, message: 'Too many requests', retryAfter: 1 } },
      { content: 'After the pause.' },
    );
    pty.write('second\r');
    await pty.waitFor(
      /limits how often it is asked \(HTTP 429: Too many requests\)\. Trying again in 1 s \(1 of 3\)\./,
    );
    await pty.waitFor('After the pause.');
    expect(emu.chats).toHaveLength(3);
  });

  test('the last model used on Ollama is not asked of a vLLM that does not serve it: its only model is taken', async () => {
    const { home } = placeForRuns('ochat-openai-last-');
    mkdirSync(join(home, 'data', 'ochat'), { recursive: true });
    writeFileSync(join(home, 'data', 'ochat', 'state.json'), JSON.stringify({ lastModel: 'llama3.2' }));
    emu = await startOpenAiEmulator({ engine: 'vllm', models: [{ id: 'Qwen/Qwen3-8B' }] });
    pty = spawnOchat(['--host', emu.url], { home, cols: 140 });
    await pty.waitFor('Qwen/Qwen3-8B · http');
    expect(pty.screen()).not.toContain("has no model 'llama3.2'");
  });

  test('LM Studio cutting silently below the window it reports: the short count is said out loud', async () => {
    const { emu, pty } = await startServerAndChat({
      engine: 'lm-studio',
      models: [{ id: 'qwen3-8b', window: 1024 }],
      reportedWindow: 8192,
    });
    await pty.waitFor('num_ctx 8192 (8k) from LM Studio loaded_context_length');
    for (let n = 1; n <= 4; n++) {
      pty.write(`Turn ${n}: ${'filler '.repeat(200)}\r`);
      await waitUntil(`turn ${n}`, () => emu.chats.length >= n, { timeoutMs: 10_000 });
      await pty.waitFor(`Echo: Turn ${n}:`);
    }
    expect(emu.chats.some((chat) => chat.truncated)).toBe(true);
    await pty.waitFor(/LM Studio truncated the prompt: about \S+ tokens were sent, the model saw \S+/);
  });

  test('a server with no model loaded says how to serve one on such servers, not ollama pull', async () => {
    // LM Studio with nothing loaded: an empty list names no engine.
    emu = await startOpenAiEmulator({ engine: 'lm-studio', models: [] });
    pty = spawnOchat(['--host', emu.url], { cols: 200 });
    await pty.waitFor(
      'The server serves no model (its /v1/models list is empty): load or serve one there (llama-server -m model.gguf, vllm serve <model>, lms load <model>), then run ochat again.',
    );
    expect(pty.screen()).not.toContain('ollama pull');
  });

  test('without a key, a server that wants one is said in words naming the variable', async () => {
    const { pty } = await startServerAndChat({ engine: 'vllm', apiKey: 'sk-x' }, ['--api', 'openai']);
    await pty.waitFor(/wants an API key \(HTTP 401: Unauthorized\)\. Set OCHAT_API_KEY/);
  });
});

describe('detection at --host', () => {
  let ollama: Emulator | undefined;
  afterEach(async () => {
    await ollama?.close();
    ollama = undefined;
  });

  test('Ollama at another host keeps its native API; what answered is remembered, so the next start asks nothing', async () => {
    ollama = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
    const { home } = placeForRuns('ochat-detect-');
    pty = spawnOchat(['--host', ollama.url, '-m', 'llama3.2'], { home });
    await pty.waitFor(PROMPT_PLACEHOLDER);
    await pty.waitFor('num_ctx 8192');
    // On Ollama the window is the one ochat sends: the status line names no source.
    await pty.waitFor(/llama3\.2 · \d+\/8k \(\d+%\)/);
    expect(pty.screen()).not.toMatch(/\/8k \(\d+%\) [^·\s]/);
    expect(ollama.requests[0].path).toBe('/api/version');
    expect(ollama.requests.some((r) => r.path.startsWith('/v1/'))).toBe(false);
    await pty.dispose();
    const seen = ollama.requests.length;
    pty = spawnOchat(['--host', ollama.url, '-m', 'llama3.2'], { home });
    await pty.waitFor('num_ctx 8192');
    expect(ollama.requests.slice(seen).map((r) => r.path)).not.toContain('/api/version');
  });

  test('a one-shot with -m remembers what answered at the host too: the next one asks nothing', async () => {
    emu = await startOpenAiEmulator({ engine: 'vllm', models: [{ id: 'Qwen/Qwen3-8B', window: 16384 }] });
    const { home } = placeForRuns('ochat-detect-once-');
    const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
    const args = ['--host', emu.url, '-m', 'Qwen/Qwen3-8B', '-p', 'hello'];
    const first = await runOchat(args, { env });
    expect(first).toMatchObject({ code: 0, stdout: 'Echo: hello\n' });
    expect(emu.requests[0].path).toBe('/api/version');
    const seen = emu.requests.length;
    const second = await runOchat(args, { env });
    expect(second).toMatchObject({ code: 0, stdout: 'Echo: hello\n' });
    expect(emu.requests.slice(seen).map((r) => r.path)).not.toContain('/api/version');
  });
});
