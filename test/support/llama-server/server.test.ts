/**
 * The real llama.cpp server, built from source by the global setup, with the tiny model: what it
 * really says on the wire, so that ochat's OpenAI-compatible client and its emulator can rely on
 * it. Its words are gibberish (random weights); its tokenization, counts, window, cache and errors
 * are the real thing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { llamaServerSetup } from './global-setup.js';
import { chatCompletion, promptTokenCount } from './openai-requests.js';
import { type LlamaServer, startLlamaServer } from './server.js';

const llama = llamaServerSetup();

/** A user message of about `words` × 2 tokens (words the tokenizer splits into about two each). */
function longText(words: number, seed = 0): string {
  const pool = ['harbour', 'lantern', 'quartz', 'meadow', 'copper', 'violet', 'thunder', 'pebble'];
  return Array.from({ length: words }, (_, i) => pool[(i * 7 + seed) % pool.length]).join(' ');
}

describe.skipIf(!llama.files)(`the real llama.cpp server${llama.skip ? ` (${llama.skip})` : ''}`, () => {
  let server: LlamaServer;

  beforeAll(async () => {
    server = await startLlamaServer(llama.files!);
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('/props publishes the per-slot window and the slot count; /v1/models the model', async () => {
    const props = await (await fetch(`${server.url}/props`)).json();
    expect(props.default_generation_settings.n_ctx).toBe(2048);
    expect(props.total_slots).toBe(1);

    const models = await (await fetch(`${server.url}/v1/models`)).json();
    expect(models.data).toHaveLength(1);
    expect(models.data[0].id).toMatch(/ochat-tiny/);
    // The window the model was trained for, not the one the server has.
    expect(models.data[0].meta.n_ctx_train).toBe(32768);
  });

  test('streams a chat completion: content deltas, a finish_reason, then usage and timings in a last chunk with no choices, then [DONE]', async () => {
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Say something about harbours.' },
    ];
    const answer = await chatCompletion(server.url, {
      messages,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 8,
    });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^text\/event-stream/);
    expect(answer.done).toBe(true);
    expect(answer.events.every((event) => event.object === 'chat.completion.chunk')).toBe(true);
    expect(answer.text.length).toBeGreaterThan(0);

    const last = answer.events.at(-1);
    expect(last.choices).toEqual([]);
    const finish = answer.events.at(-2).choices[0];
    // 8 tokens of random words never reach an end-of-generation token: the reply is cut.
    expect(finish.finish_reason).toBe('length');

    const { usage, timings } = last;
    expect(usage.completion_tokens).toBe(8);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    // The prompt count is the server's own template and tokenizer at work.
    expect(usage.prompt_tokens).toBe(await promptTokenCount(server.url, messages));
    // Evaluated anew plus taken from the KV cache: the whole prompt.
    expect(timings.prompt_n + timings.cache_n).toBe(usage.prompt_tokens);
    expect(usage.prompt_tokens_details.cached_tokens).toBe(timings.cache_n);
    expect(timings.predicted_n).toBe(8);
  });

  test('a request that continues the previous prompt evaluates only the new tokens; another prompt is evaluated whole', async () => {
    const first = [
      { role: 'system', content: 'You keep notes.' },
      { role: 'user', content: longText(200, 1) },
    ];
    const one = await chatCompletion(server.url, {
      messages: first,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 4,
    });
    const continued = [
      ...first,
      { role: 'assistant', content: one.text },
      { role: 'user', content: 'And then?' },
    ];
    const two = await chatCompletion(server.url, {
      messages: continued,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 4,
    });
    const before = one.events.at(-1).usage.prompt_tokens;
    const after = two.events.at(-1);
    // At least the whole first prompt came from the cache (the reply may re-tokenize differently):
    // only the reply and the new message were evaluated.
    expect(after.timings.cache_n).toBeGreaterThanOrEqual(before);
    expect(after.usage.prompt_tokens).toBe(await promptTokenCount(server.url, continued));
    expect(after.timings.prompt_n).toBeLessThanOrEqual(after.usage.prompt_tokens - before);
    expect(after.timings.prompt_n).toBeLessThan(after.usage.prompt_tokens / 5);
    expect(after.timings.prompt_n + after.timings.cache_n).toBe(after.usage.prompt_tokens);

    const other = await chatCompletion(server.url, {
      messages: [{ role: 'user', content: longText(200, 5) }],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 4,
    });
    const fresh = other.events.at(-1);
    // Only the template's first few tokens are shared.
    expect(fresh.timings.cache_n).toBeLessThan(10);
    expect(fresh.timings.prompt_n).toBeGreaterThan(fresh.usage.prompt_tokens - 10);
  });

  test('refuses an over-long prompt with HTTP 400 exceed_context_size_error carrying n_ctx and the count, streamed or not', async () => {
    const messages = [{ role: 'user', content: longText(1500) }];
    const count = await promptTokenCount(server.url, messages);
    expect(count).toBeGreaterThan(2048);
    for (const stream of [false, true]) {
      const answer = await chatCompletion(server.url, { messages, stream, max_tokens: 4 });
      // Streamed too, the first error is a plain JSON answer, not an event.
      expect(answer.status).toBe(400);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(answer.body).toEqual({
        error: {
          code: 400,
          type: 'exceed_context_size_error',
          message: `request (${count} tokens) exceeds the available context size (2048 tokens), try increasing it`,
          n_prompt_tokens: count,
          n_ctx: 2048,
        },
      });
    }
  });
});
