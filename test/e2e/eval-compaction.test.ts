/**
 * `ochat eval compaction` end to end: the built CLI as a plain child process against the Ollama
 * emulator (and an OpenAI-compatible one), its summarizer keeping only the gist and its chat model
 * answering only from what it is sent; the table by kind, the compaction times, the requests.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { PINS_HEADER } from '../../src/compaction/pins.js';
import { PROBE_KINDS, PROBE_ROUNDS, PROBES } from '../../src/eval/probe-chat.js';
import { compactionResponder, gistOnly, isSummarizerRequest } from '../support/compaction-summarizer.js';
import { unusedPort } from '../support/down-host.js';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { type OpenAiEmulator, startOpenAiEmulator } from '../support/openai-emulator.js';
import { probeReader } from '../support/probe-reader.js';

let emu: Emulator | undefined;
let openai: OpenAiEmulator | undefined;

afterEach(async () => {
  await emu?.close();
  await openai?.close();
  emu = undefined;
  openai = undefined;
});

/** The table's row for `label`: its in-view, answered and recall counts. */
function tableRow(stdout: string, label: string): { inView: string; answered: string; recall: string } {
  const line = stdout.split('\n').find((l) => l.startsWith(`${label}  `));
  if (!line) throw new Error(`no row "${label}" in:\n${stdout}`);
  const [inView, answered, recall] = line.slice(label.length).trim().split(/\s+/);
  return { inView, answered, recall };
}

describe('ochat eval compaction', () => {
  test('runs the probe chat at the emulator: a table by kind, each compaction timed, every question asked after the last one', async () => {
    emu = await startEmulator({
      tokensPerSecond: Number.POSITIVE_INFINITY,
      models: [{ name: 'llama3.2:latest' }],
    });
    emu.respondWith(compactionResponder({ summarize: gistOnly, chat: probeReader }));
    const result = await runOchat(
      ['eval', 'compaction', '-m', 'llama3.2', '--num-ctx', '4096', '--host', emu.url],
      {
        timeoutMs: 60_000,
      },
    );
    expect(result.stderr).not.toContain('ochat:');
    expect(result.code).toBe(0);
    const { stdout } = result;
    expect(stdout).toContain(
      'Compaction eval: chat model llama3.2 (num_ctx 4096), summarizer llama3.2 (num_ctx 4096)',
    );
    // Every kind has its row; the reader answers exactly what it was sent.
    for (const [, label] of PROBE_KINDS) {
      const row = tableRow(stdout, label);
      expect(row.inView).toMatch(/^\d\/2$/);
      expect(row.answered).toBe(row.inView);
    }
    // Pinned notes are in every request, whatever the summary keeps.
    expect(tableRow(stdout, 'pinned note')).toEqual({ inView: '2/2', answered: '2/2', recall: '—' });
    expect(tableRow(stdout, 'all probes').inView).toMatch(/^\d+\/22$/);
    // Whatever the summary lost, the recall tool finds in the history.
    expect(tableRow(stdout, 'all probes').recall).toBe('20/20');
    expect(tableRow(stdout, 'exact details and pins').inView).toMatch(/^\d+\/12$/);
    const times = /^compaction time: (.+)$/m.exec(stdout)?.[1].split(', ') ?? [];
    expect(times).toHaveLength(PROBE_ROUNDS);
    for (const time of times) expect(time).toMatch(/^\d+ ms$|^\d+\.\d s$/);
    // Progress and each compaction's report go to stderr.
    expect(result.stderr).toContain(`compaction ${PROBE_ROUNDS}/${PROBE_ROUNDS}: `);
    expect(result.stderr).toMatch(/Compacted \d+ messages/);

    const chats = emu?.chats ?? [];
    expect(chats.filter(isSummarizerRequest).length).toBeGreaterThanOrEqual(PROBE_ROUNDS);
    const questions = chats.filter((c) => !isSummarizerRequest(c));
    expect(questions.map((c) => c.body.messages.at(-1).content)).toEqual(
      PROBES.map((p) => `${p.question} Answer with the value alone.`),
    );
    for (const q of questions) {
      expect(q.body.options.num_ctx).toBe(4096);
      expect(q.body.truncate).toBe(false);
      expect(q.body.messages[0].content).toContain(PINS_HEADER);
      // After the last compaction: the summary is in the system message, and nothing was cut.
      expect(q.body.messages[0].content).toContain('[Summary of the earlier conversation');
      expect(q.promptEvalCount).toBe(q.promptTokens);
    }
  }, 90_000);

  test('a summarizer model of its own is used for every summary, the chat model only for the questions, asked not to think', async () => {
    emu = await startEmulator({
      tokensPerSecond: Number.POSITIVE_INFINITY,
      models: [{ name: 'qwen3:latest', capabilities: ['completion', 'thinking'] }, { name: 'qwen2.5:0.5b' }],
    });
    emu.respondWith(compactionResponder({ summarize: gistOnly, chat: probeReader }));
    const result = await runOchat(
      [
        'eval',
        'compaction',
        '-m',
        'qwen3',
        '--summarizer-model',
        'qwen2.5:0.5b',
        '--num-ctx',
        '2048',
        '--host',
        emu.url,
      ],
      { timeoutMs: 60_000 },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('summarizer qwen2.5:0.5b (num_ctx');
    const chats = emu?.chats ?? [];
    expect(new Set(chats.filter(isSummarizerRequest).map((c) => c.body.model))).toEqual(
      new Set(['qwen2.5:0.5b']),
    );
    const questions = chats.filter((c) => !isSummarizerRequest(c));
    expect(new Set(questions.map((c) => c.body.model))).toEqual(new Set(['qwen3']));
    expect(questions.map((c) => c.body.think)).toEqual(PROBES.map(() => false));
  }, 90_000);

  test('works against an OpenAI-compatible server (vLLM)', async () => {
    openai = await startOpenAiEmulator({ engine: 'vllm', models: [{ id: 'Qwen/Qwen3-8B', window: 4096 }] });
    openai.respondWith((record) =>
      isSummarizerRequest(record) ? { content: gistOnly(record as never).content } : probeReader(record),
    );
    const result = await runOchat(['eval', 'compaction', '-m', 'Qwen/Qwen3-8B', '--host', openai.url], {
      timeoutMs: 60_000,
    });
    expect(result.stderr).not.toContain('ochat:');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('chat model Qwen/Qwen3-8B (num_ctx 4096)');
    expect(tableRow(result.stdout, 'pinned note')).toEqual({ inView: '2/2', answered: '2/2', recall: '—' });
    expect(openai.chats.every((c) => c.error === undefined)).toBe(true);
  }, 90_000);

  test('says in words when the server is down, naming the host and how to start it', async () => {
    const host = `http://127.0.0.1:${await unusedPort()}`;
    const result = await runOchat(['eval', 'compaction', '-m', 'llama3.2', '--host', host]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `ochat: eval compaction: Cannot reach Ollama at ${host} (connection refused). Is it running? Start it with \`ollama serve\` (or set --host / OLLAMA_HOST).\n`,
    );
  });

  test('a usage error says what is wrong and shows the usage; --help shows it alone', async () => {
    const wrong = await runOchat(['eval', 'compactoin']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /^ochat: unknown evaluation "compactoin": the one there is is `ochat eval compaction`\.\nUsage: ochat eval compaction/,
    );
    const help = await runOchat(['eval', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: ochat eval compaction \[options\]\n/);
    expect(help.stdout).toContain('--summarizer-model <name>');
  });
});
