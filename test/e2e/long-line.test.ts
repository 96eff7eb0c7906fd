/**
 * One very long line end to end: a session holding a 16 MB message that is one line is compacted
 * by the built CLI without freezing it — the summarizer's first request leaves at once, and Ctrl+C
 * cancels the compaction within a second (splitting that line once took the event loop for
 * minutes, Ctrl+C and SIGHUP with it).
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { isSummarizerRequest, summarizerChats } from '../support/compaction-summarizer.js';
import { type ChatRun, exitCode, placeForRuns, removePlaces, startChat } from '../support/e2e-chat.js';
import { deliberatePause, waitUntil } from '../support/wait-until.js';

const MODELS = [{ name: 'chat:latest', capabilities: ['completion'] }];

const runs: ChatRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
  removePlaces();
});

/** A 16 MB paragraph without a line break, a fact at each end. */
function oneLine(bytes: number): string {
  const words = 'the build log said nothing useful here '.repeat(Math.ceil(bytes / 39));
  return `FACT-start ${words.slice(0, bytes - 22)} FACT-end`;
}

describe('a 16 MB message that is one line', () => {
  test('is compacted without a freeze: its first part goes to the summarizer at once, and Ctrl+C cancels within a second', async () => {
    const where = placeForRuns('ochat-long-line-e2e-');
    const first = await startChat({
      models: MODELS,
      args: ['-m', 'chat', '--num-ctx', '8192'],
      pty: { home: where.home, cwd: where.cwd },
    });
    runs.push(first);
    first.pty.write('hello\r');
    await first.pty.waitFor('Echo: hello');
    first.pty.write('/quit\r');
    expect(await exitCode(first.pty)).toBe(0);

    // The session gains a turn whose message is the long line (as a paste sent anyway leaves it).
    const [name] = readdirSync(where.sessions).filter((f) => f.endsWith('.jsonl'));
    const file = join(where.sessions, name);
    const entries = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const messages = entries.filter((e) => e.type === 'message').map((e) => e.message);
    const user = messages.find((m) => m.role === 'user');
    const lastId = Math.max(...messages.map((m) => m.id));
    const lastTurn = Math.max(...messages.map((m) => m.turn));
    const at = user.at;
    const added = [
      { ...user, id: lastId + 1, turn: lastTurn + 1, content: oneLine(16_000_000), at },
      { id: lastId + 2, turn: lastTurn + 1, role: 'assistant', content: 'Noted.', at },
      { ...user, id: lastId + 3, turn: lastTurn + 2, content: 'and now?', at },
      { id: lastId + 4, turn: lastTurn + 2, role: 'assistant', content: 'Still here.', at },
    ];
    appendFileSync(
      file,
      added.map((message) => `${JSON.stringify({ type: 'message', message })}\n`).join(''),
    );

    const run = await startChat({
      models: MODELS,
      args: ['--continue'],
      pty: { home: where.home, cwd: where.cwd },
      readyText: 'Resumed session',
    });
    runs.push(run);
    // Each summarizer reply takes a while, as a real model's does: the compaction is still running when Ctrl+C comes.
    run.emu.respondWith(async (req) => {
      if (!isSummarizerRequest(req)) return undefined;
      await deliberatePause(200, "a summarizer's reply takes a while, as a real model's does");
      return { content: 'A long build log; nothing useful in it.' };
    });
    await run.pty.waitFor('num_ctx');
    const typed = Date.now();
    run.pty.write('/compact\r');
    await waitUntil('a summarizer request', () => summarizerChats(run.emu).length > 0, { timeoutMs: 20_000 });
    const firstRequestMs = Date.now() - typed;
    await run.pty.waitFor('compacting');
    const pressed = Date.now();
    run.pty.write('\x03');
    await run.pty.waitFor('Compaction cancelled', 20_000, { settle: false });
    const cancelMs = Date.now() - pressed;
    console.log(
      `16 MB one line: first summarizer request after ${firstRequestMs} ms, Ctrl+C took ${cancelMs} ms`,
    );
    expect(cancelMs).toBeLessThan(1000);
    // The compaction is over: no more summarizer requests go.
    const sent = summarizerChats(run.emu).length;
    await deliberatePause(500, 'a window in which a wrongly continued compaction would send another request');
    expect(summarizerChats(run.emu).length).toBe(sent);
  }, 120_000);
});
