/**
 * The built CLI against a real engine: llama.cpp's llama-server (built from source by the global
 * setup) with a tiny random-weights model and a real tokenizer, started with a 2048-token window.
 * Its words are gibberish; its window, counts, KV cache and refusals are real. A recording proxy
 * in between shows what the server answered to every request.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { isSummarizerRequest } from '../support/compaction-summarizer.js';
import { llamaServerSetup } from '../support/llama-server/global-setup.js';
import {
  compactionReports,
  type LlamaChat,
  noteText,
  sendAndSettle,
  startLlamaChat,
  turnRequests,
} from '../support/llama-server/llama-chat.js';
import { waitUntil } from '../support/wait-until.js';

const llama = llamaServerSetup();

let chat: LlamaChat | undefined;

afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

describe.skipIf(!llama.files)(
  `ochat against a real llama.cpp server${llama.skip ? ` (${llama.skip})` : ''}`,
  () => {
    test("opens a chat on the server's model with its real window, streams a reply and meters it with the server's own counts", async () => {
      chat = await startLlamaChat(llama.files!);
      const { pty, proxy } = chat;
      await pty.waitFor('num_ctx 2048 (2k) from llama-server /props n_ctx');
      await pty.waitFor(/ochat-tiny · \d+\/2k \(\d+%\) \/props/);

      await sendAndSettle(chat, 'Hello there, tiny model.');
      const [request] = proxy.completions;
      expect(proxy.completions).toHaveLength(1);
      expect(request.status).toBe(200);
      expect(request.body.stream).toBe(true);
      expect(request.body.stream_options).toEqual({ include_usage: true });
      expect(request.text.length).toBeGreaterThan(0);
      // The meter is what the server counted: the prompt and the reply.
      const used = request.usage!.prompt_tokens + request.usage!.completion_tokens;
      await pty.waitFor(new RegExp(`${used}/2k`));
      // The server stops every reply at -n 48: the cut is named as an OpenAI server names its limit.
      await pty.waitFor('The reply hit its length limit (max_tokens) and was cut.');
      expect(pty.screen()).not.toContain('num_predict');
    }, 120_000);

    test("/context after a reply adds up to the window: the definitions chatml does not render take none of it, the chat's messages do", async () => {
      chat = await startLlamaChat(llama.files!);
      const { pty, proxy } = chat;
      await sendAndSettle(chat, 'Hello there, tiny model.');
      await sendAndSettle(chat, 'And a second message, a little longer than the first one.');
      const count = proxy.completions.at(-1)!.usage!;
      pty.write('/context\r');
      await pty.waitFor(/free\s+\S+\s+\d+%[\s\S]*›/);
      const rows = [...pty.screen().matchAll(/^\s{4}(\w[\w ]*?)\s+(\d+(?:\.\d+)?k?)\s+(\d+)%/gm)];
      const tokens = new Map(rows.map((m) => [m[1], m[2].endsWith('k') ? Number.NaN : Number(m[2])]));
      // It showed 566 tokens of definitions the server never saw and an empty verbatim tail, and
      // its rows came to 124% of the window.
      expect(tokens.get('tool definitions')).toBe(0);
      expect(tokens.get('verbatim tail')).toBeGreaterThanOrEqual(
        count.prompt_tokens + count.completion_tokens,
      );
      const percent = rows.reduce((sum, m) => sum + Number(m[3]), 0);
      expect(Math.abs(percent - 100)).toBeLessThanOrEqual(3);
    }, 120_000);

    test('a long chat compacts at 2048 several times and no request is refused', async () => {
      chat = await startLlamaChat(llama.files!);
      const { proxy } = chat;
      for (let n = 1; n <= 14 && compactionReports(chat!) < 3; n++) await sendAndSettle(chat, noteText(n));

      expect(compactionReports(chat)).toBeGreaterThanOrEqual(3);
      expect(proxy.completions.filter(isSummarizerRequest).length).toBeGreaterThanOrEqual(3);
      for (const completion of proxy.completions) {
        expect(completion.error).toBeUndefined();
        expect(completion.status).toBe(200);
        expect(completion.usage!.prompt_tokens).toBeLessThan(2048);
      }
    }, 600_000);

    test('told --num-ctx 8192, it learns the 2048 window from the refusal, says so, compacts and sends the message again', async () => {
      chat = await startLlamaChat(llama.files!, { args: ['--num-ctx', '8192'] });
      const { pty, proxy } = chat;
      await pty.waitFor('num_ctx 8192');
      const refused = () => proxy.completions.find((completion) => completion.status === 400);
      let n = 1;
      for (; n <= 14 && !refused(); n++) await sendAndSettle(chat, noteText(n));

      const refusal = refused();
      expect(refusal?.error).toMatchObject({ type: 'exceed_context_size_error', n_ctx: 2048 });
      await pty.waitFor("llama-server's window is 2k, not 8k");
      await waitUntil('a compaction report', () => compactionReports(chat!) >= 1);
      // The refused message went again, after the compaction, and was answered: nothing typed is lost.
      const again = turnRequests(chat, noteText(n - 1));
      expect(again.map((completion) => completion.status)).toEqual([400, 200]);
      const refusedAt = proxy.completions.indexOf(again[0]);
      const resentAt = proxy.completions.indexOf(again[1]);
      expect(proxy.completions.slice(refusedAt + 1, resentAt).some(isSummarizerRequest)).toBe(true);
      expect(again[1].usage!.prompt_tokens).toBeLessThan(2048);
      // Exactly one refusal: from then on ochat keeps to the window it learnt.
      await sendAndSettle(chat, noteText(n));
      await sendAndSettle(chat, noteText(n + 1));
      expect(proxy.completions.filter((completion) => completion.status !== 200)).toEqual([again[0]]);
    }, 600_000);
  },
);
