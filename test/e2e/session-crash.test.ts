/**
 * Crash safety: the built CLI is killed with SIGKILL at random points of a scripted chat (streamed
 * replies, tool calls, automatic compactions at num_ctx 2048), each run resuming the session the
 * previous one left. After every kill the session opens writable, and everything the model was
 * last sent (the tail of the last request, and the summary if it carried one) is in the file:
 * nothing is lost but the reply in flight.
 *
 * The suite runs OCHAT_CRASH_KILLS (default 12) kills; the full run of the issue is
 * `OCHAT_CRASH_KILLS=60 npx vitest run test/e2e/session-crash.test.ts` (about a minute).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseSession } from '../../src/sessions/session-reader.js';
import { replaySession } from '../../src/sessions/session-replay.js';
import { compactionResponder, conversationChats } from '../support/compaction-summarizer.js';
import { startEmulator } from '../support/emulator.js';
import { spawnOchat } from '../support/pty-session.js';
import { deliberatePause } from '../support/wait-until.js';

const KILLS = Number(process.env.OCHAT_CRASH_KILLS ?? 12);
const root = mkdtempSync(join(tmpdir(), 'ochat-crash-'));
afterAll(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

/** A deterministic pseudo-random sequence (the kill points are reproducible from the seed). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('crash safety', () => {
  test(`SIGKILL at ${KILLS} random points: every session opens and keeps all that was sent`, async () => {
    const home = join(root, 'home');
    const cwd = join(root, 'work');
    mkdirSync(home);
    mkdirSync(cwd);
    writeFileSync(join(cwd, 'notes.txt'), `${'FACT-notes a line of notes\n'.repeat(20)}`);
    const sessions = join(home, 'data', 'ochat', 'sessions');
    const emu = await startEmulator({
      models: [{ name: 'chat:latest', capabilities: ['completion', 'tools'] }],
      tokensPerSecond: 400,
    });
    emu.respondWith(
      compactionResponder({
        chat: (_req, n) =>
          n % 3 === 0
            ? { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }
            : { content: `${'lorem ipsum '.repeat(60).trim()}\n\nReply ${n} done.` },
      }),
    );
    const next = random(20261203);
    let torn = 0;
    let savedMessages = 0;
    let compactions = 0;
    let question = 0;
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        const resumable = existsSession(sessions);
        const args = resumable ? ['--continue'] : ['-m', 'chat', '--num-ctx', '2048'];
        const pty = spawnOchat(args, { home, cwd, env: { OLLAMA_HOST: emu.url } });
        await pty.waitFor('Type a message', 15_000, { settle: false });
        expect(pty.screen()).not.toContain('Read-only');
        // Keep typing; each Enter is queued while a reply streams.
        const deadline = Date.now() + 100 + next() * 1500;
        while (Date.now() < deadline) {
          question += 1;
          pty.write(`Question ${question}, FACT-${question}?\r`);
          await deliberatePause(
            50 + next() * 400,
            'a person typing at a random pace, so kills land anywhere',
          );
        }
        // The killed process's lock was taken over: no "held by another ochat" question.
        expect(pty.screen()).not.toContain('open in another ochat');
        process.kill(pty.pid, 'SIGKILL');
        await pty.exited;
        await pty.dispose();

        if (!existsSession(sessions)) continue; // killed before the first message was saved
        const files = readdirSync(sessions).filter((f) => f.endsWith('.jsonl'));
        expect(files).toHaveLength(1);
        const text = readFileSync(join(sessions, files[0]), 'utf8');
        const parsed = parseSession(text);
        expect(parsed.readOnly).toBeUndefined();
        if (parsed.notices.length) torn += 1;
        const { messages, records, attempts } = replaySession(parsed.header, parsed.entries);
        savedMessages = messages.length;
        compactions = attempts.length;
        const last = conversationChats(emu).at(-1);
        if (!last) continue;
        const saved = new Set(messages.map((m) => `${m.role}\u0000${m.content}`));
        for (const sent of last.body.messages as { role: string; content: string }[]) {
          if (sent.role === 'system') {
            if (sent.content.includes('FACT-')) expect(records.length).toBeGreaterThan(0);
            continue;
          }
          expect(
            saved.has(`${sent.role}\u0000${sent.content}`),
            `${sent.role}: ${sent.content.slice(0, 60)}`,
          ).toBe(true);
        }
      }
    } finally {
      await emu.close();
    }
    process.stdout.write(
      `crash safety: ${KILLS} kills, ${torn} left a torn last line, ${question} messages typed, ${conversationChats(emu).length} chat requests, ${savedMessages} messages and ${compactions} compaction attempts in the session\n`,
    );
  }, 600_000);
});

function existsSession(dir: string): boolean {
  try {
    return readdirSync(dir).some((f) => f.endsWith('.jsonl'));
  } catch {
    return false;
  }
}
