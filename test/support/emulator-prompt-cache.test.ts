import { Ollama } from 'ollama';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countPromptTokens, countToolTokens, type Emulator, startEmulator } from './emulator.js';

let emu: Emulator;
let client: Ollama;

beforeEach(async () => {
  emu = await startEmulator({
    models: [
      { name: 'qwen3:latest', capabilities: ['completion', 'tools', 'thinking'] },
      { name: 'llama3.2:latest' },
    ],
  });
  client = new Ollama({ host: emu.url });
});

afterEach(async () => {
  await emu.close();
});

const system = { role: 'system', content: 'You are terse. '.repeat(20) };
const history = [
  system,
  { role: 'user', content: 'First question about the harbour. '.repeat(10) },
  { role: 'assistant', content: 'First answer about the harbour. '.repeat(10) },
  { role: 'user', content: 'Second question.' },
];
const tool = (name: string) => ({
  type: 'function',
  function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: {} } },
});

/** Sends `messages`, returns the done line's counts and the reply. */
async function ask(messages: { role: string; content: string }[], extra: Record<string, unknown> = {}) {
  const reply = await client.chat({ model: 'qwen3', messages, think: false, ...extra });
  return {
    content: reply.message.content,
    count: reply.prompt_eval_count,
    cached: (reply as unknown as { prompt_eval_cached_count: number }).prompt_eval_cached_count,
  };
}

describe("the runner's prefix cache", () => {
  it('evaluates a first prompt whole, and of the next one only what follows the last prompt and reply', async () => {
    const first = await ask(history);
    expect(first).toMatchObject({ count: countPromptTokens(history), cached: 0 });
    const next = [
      ...history,
      { role: 'assistant', content: first.content },
      { role: 'user', content: 'Third.' },
    ];
    const second = await ask(next);
    // prompt_eval_count stays the whole prompt; the cache held all but the new user message.
    expect(second.count).toBe(countPromptTokens(next));
    expect(second.cached).toBe(countPromptTokens(next.slice(0, -1)));
    expect(emu.chats[1].promptCachedCount).toBe(second.cached);
  });

  it('shares a changed message only up to where its text differs, and nothing after it', async () => {
    await ask(history);
    const edited = [
      history[0],
      { ...history[1], content: `${history[1].content.slice(0, 40)}CHANGED` },
      history[3],
    ];
    const { cached } = await ask(edited);
    expect(cached).toBe(countPromptTokens([history[0]]) + 2 + 10);
  });

  it('a different tool list, num_ctx, model or an unload empties what can be reused', async () => {
    await ask(history, { tools: [tool('a')] });
    expect((await ask(history, { tools: [tool('a')] })).cached).toBe(
      countPromptTokens(history) + countToolTokens([tool('a')]) - 1,
    );
    expect((await ask(history, { tools: [tool('b')] })).cached).toBe(0);
    expect((await ask(history, { tools: [tool('b')], options: { num_ctx: 8192 } })).cached).toBe(0);
    // Another model has its own runner: qwen3's slot is still there afterwards.
    await client.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask(history, { tools: [tool('b')], options: { num_ctx: 8192 } })).cached).toBeGreaterThan(
      0,
    );
    await client.chat({ model: 'qwen3', messages: [], keep_alive: 0 });
    expect((await ask(history, { tools: [tool('b')], options: { num_ctx: 8192 } })).cached).toBe(0);
  });

  it('always evaluates at least the last token, and reports the saved time in prompt_eval_duration', async () => {
    const once = await client.chat({ model: 'qwen3', messages: history, think: false });
    const again = await client.chat({ model: 'qwen3', messages: history, think: false });
    expect((again as unknown as { prompt_eval_cached_count: number }).prompt_eval_cached_count).toBe(
      countPromptTokens(history) - 1,
    );
    expect(again.prompt_eval_duration).toBeLessThan(once.prompt_eval_duration / 10);
  });

  it('does not count thinking the reply generated as a prefix of the history sent back', async () => {
    emu.enqueue({ thinking: 'Let me think about the harbour.', content: 'Answer.' });
    await client.chat({ model: 'qwen3', messages: history, think: true });
    const next = [...history, { role: 'assistant', content: 'Answer.' }, { role: 'user', content: 'More.' }];
    const { cached } = await ask(next);
    expect(cached).toBeLessThan(countPromptTokens(next.slice(0, -2)) + 4);
    expect(cached).toBeGreaterThanOrEqual(countPromptTokens(history));
  });
});
