/**
 * Issue 22's three scenarios as a new user meets them, over the built CLI at num_ctx 2048 (colours
 * on, the emulator truncating over num_ctx as Ollama does): no request is ever cut by the server,
 * and no fact the user gave is lost without a word.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  compactionResponder,
  conversationChats,
  factsIn,
  summarizerChats,
} from '../support/compaction-summarizer.js';
import type { ChatRequestRecord } from '../support/emulator.js';
import { startToolRun, type ToolRun } from '../support/tools-e2e.js';

let run: ToolRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** The screen with its line wrapping undone: every run of whitespace made one space. */
const flat = (screen: string) => screen.replace(/\s+/g, ' ');

/** What the model saw of a request, as one text. */
const seenBy = (chat: ChatRequestRecord) => chat.keptMessages.map((m) => String(m.content)).join('\n');

/** A 321-line README of about 20 kB whose one fact sits in its middle. */
function bigReadme(): string {
  const lines = Array.from({ length: 321 }, (_, i) =>
    (i === 160 ? 'FACT-R1 the release codename is tangerine, as decided.' : `line ${i + 1} `).padEnd(61, '-'),
  );
  return `${lines.join('\n')}\n`;
}

/** The model: reads README.md when asked to read, runs a command when asked to run, else replies `Reply <n> done.`. */
const toolModel = (request: ChatRequestRecord, n: number) => {
  const last = request.body.messages.at(-1);
  if (last.role === 'user' && /read the readme/i.test(String(last.content)))
    return { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] };
  if (last.role === 'user' && /count to/i.test(String(last.content)))
    return { toolCalls: [{ name: 'run_command', arguments: { command: 'seq 1 4000' } }] };
  return { content: `Reply ${n} done.` };
};

describe('1. a big tool output', () => {
  test('every request, tool rounds and the turn after them, fits: none is truncated by the server, FACT-G1 stays, the tool line says what the model got', async () => {
    run = await startToolRun({
      args: ['--num-ctx', '2048'],
      config: 'tools:\n  confirm: []\n',
    });
    const { emu, pty, cwd } = run;
    writeFileSync(join(cwd, 'README.md'), bigReadme());
    emu.respondWith(compactionResponder({ chat: toolModel }));

    pty.write('remember FACT-G1 my postal code is 90210\r');
    await pty.waitFor('Reply 1 done.');
    pty.write('Read the README please.\r');
    await pty.waitFor('Reply 3 done.');
    expect(flat(pty.screen())).toMatch(
      /README\.md \(lines 1–321 of 321; the model got the first 1,000 chars\)/,
    );
    pty.write('hello again\r');
    await pty.waitFor('Reply 4 done.');
    pty.write('Now count to 4000.\r');
    await pty.waitFor('Reply 6 done.');
    pty.write('and again\r');
    await pty.waitFor('Reply 7 done.');

    const chats = conversationChats(emu);
    expect(chats.map((c) => c.truncated)).toEqual(chats.map(() => false));
    expect(summarizerChats(emu).length).toBeGreaterThan(0);
    expect(factsIn(seenBy(chats.at(-1)!))).toContain('FACT-G1');
    expect(flat(pty.screen())).not.toContain('Ollama truncated the prompt');
  });
});
