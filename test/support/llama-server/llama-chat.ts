/**
 * The built ochat in a PTY against the real llama.cpp server, through a recording proxy so a test
 * (or the bench) sees what the real engine did with each request; and a long chat typed into it
 * turn by turn. For the end-to-end tests and the bench alike.
 */
import { isSummarizerRequest } from '../compaction-summarizer.js';
import { PROMPT_PLACEHOLDER } from '../e2e-chat.js';
import { type PtySession, spawnOchat } from '../pty-session.js';
import { waitUntil } from '../wait-until.js';
import type { LlamaServerFiles } from './prepare.js';
import { type RecordedCompletion, type RecordingProxy, startRecordingProxy } from './recording-proxy.js';
import { type LlamaServer, type LlamaServerOptions, startLlamaServer } from './server.js';

/** ochat, the proxy and the server, with one `close()` for all three. */
export interface LlamaChat {
  server: LlamaServer;
  proxy: RecordingProxy;
  pty: PtySession;
  close(): Promise<void>;
}

/** Options of {@link startLlamaChat}. */
export interface LlamaChatOptions {
  /** ochat's arguments besides `--host`. */
  args?: string[];
  server?: LlamaServerOptions;
}

/** Starts the server, the proxy and `bin/ochat --host <proxy>`; resolves once the chat is ready. */
export async function startLlamaChat(
  files: LlamaServerFiles,
  options: LlamaChatOptions = {},
): Promise<LlamaChat> {
  const server = await startLlamaServer(files, options.server);
  const proxy = await startRecordingProxy(server.url);
  const pty = spawnOchat(['--host', proxy.url, ...(options.args ?? [])], { cols: 120, rows: 40 });
  let closed = false;
  const chat: LlamaChat = {
    server,
    proxy,
    pty,
    async close() {
      if (closed) return;
      closed = true;
      await pty.dispose();
      await proxy.close();
      await server.stop();
    },
  };
  try {
    await pty.waitFor(PROMPT_PLACEHOLDER, 30_000);
  } catch (error) {
    await chat.close();
    throw error;
  }
  return chat;
}

/** How many "Compacted N messages" reports are on screen. */
export function compactionReports(chat: LlamaChat): number {
  return chat.pty.screen().match(/Compacted \d+ messages/g)?.length ?? 0;
}

const RETRY_QUESTION = 'Retry compaction? (y/n)';

/** How many `Compaction failed` warnings are on screen. */
export function compactionFailures(chat: LlamaChat): number {
  return chat.pty.screen().match(/Compaction failed/g)?.length ?? 0;
}

/** A user message of about `words` × 2 tokens, with a fact in it (`NOTE-<n>`), the same on every run. */
export function noteText(n: number, words = 120): string {
  const pool = ['harbour', 'lantern', 'quartz', 'meadow', 'copper', 'violet', 'thunder', 'pebble', 'orchard'];
  const body = Array.from({ length: words }, (_, i) => pool[(i * 5 + n) % pool.length]).join(' ');
  return `Note NOTE-${n}: ${body}.`;
}

/** The user message a request ends with. */
function lastUserText(completion: RecordedCompletion): string | undefined {
  const messages: { role: string; content?: unknown }[] = completion.body?.messages ?? [];
  const last = messages.findLast((message) => message.role === 'user');
  return typeof last?.content === 'string' ? last.content : undefined;
}

/** The chat requests (not compaction's) that carried `text` as their last user message. */
export function turnRequests(chat: LlamaChat, text: string): RecordedCompletion[] {
  return chat.proxy.completions.filter(
    (completion) => !isSummarizerRequest(completion) && lastUserText(completion) === text,
  );
}

/**
 * Types `text` as one message and waits until its turn is answered (a 200 for a chat request
 * ending with it) and everything it caused (a compaction after it) has settled: nothing in flight
 * for a while, the prompt back.
 */
export async function sendAndSettle(
  chat: LlamaChat,
  text: string,
  timeoutMs = 120_000,
  /** Answer `n` to `Retry compaction?` (a long chat that measures goes on; the failure stays on screen). */
  declineRetry = false,
): Promise<void> {
  chat.pty.write(`${text}\r`);
  const { proxy, pty } = chat;
  let quietSince = 0;
  const asked = () => pty.screen().split(RETRY_QUESTION).length - 1;
  let declined = asked();
  await waitUntil(
    `the turn "${text.slice(0, 30)}…" answered and settled`,
    () => {
      if (declineRetry && asked() > declined) {
        declined += 1;
        pty.write('n');
      }
      const answered = turnRequests(chat, text).some((completion) => completion.status === 200);
      if (!answered || proxy.inFlight > 0 || !pty.screen().includes(PROMPT_PLACEHOLDER)) {
        quietSince = 0;
        return false;
      }
      quietSince ||= Date.now();
      // A compaction starts right after a reply: quiet for a while means none is coming.
      return Date.now() - quietSince > 800;
    },
    {
      timeoutMs,
      pollMs: 50,
      describe: () =>
        `Requests: ${proxy.completions.map((c) => `${isSummarizerRequest(c) ? 'summarizer' : 'chat'} ${c.status}`).join(', ')}\n${pty.screen()}\nThe server's last lines:\n${chat.server.log().split('\n').slice(-15).join('\n')}`,
    },
  );
}
