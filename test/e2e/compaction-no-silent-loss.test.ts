/**
 * Issue 22's three scenarios as a new user meets them, over the built CLI at num_ctx 2048 (colours
 * on, the emulator truncating over num_ctx as Ollama does): no request is ever cut by the server,
 * and no fact the user gave is lost without a word.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
import { waitUntil } from '../support/wait-until.js';

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
    // Room made first (the older turn compacted), then as much of the output as fits, and said.
    const said =
      /Compacted \d+ messages[^⚙]*⚙ read_file README\.md — read README\.md \(lines 1–321 of 321; the model got the first ([\d,]+) chars\)/.exec(
        flat(pty.screen()),
      );
    expect(said, flat(pty.screen())).not.toBeNull();
    const got = Number(said?.[1].replaceAll(',', ''));
    expect(got).toBeGreaterThan(3000);
    const readme = bigReadme();
    const afterRead = conversationChats(emu).find((c) => c.body.messages.at(-1)?.role === 'tool');
    const sent = String(afterRead?.body.messages.at(-1)?.content);
    expect(sent.startsWith(readme.slice(0, got).trimEnd())).toBe(true);
    expect(sent).toMatch(/\n… \[output shortened to fit the context window, [\d,]+ chars omitted; summary: /);
    pty.write('hello again\r');
    await pty.waitFor('Reply 4 done.');
    pty.write('Now count to 4000.\r');
    await pty.waitFor('Reply 6 done.');
    pty.write('and again\r');
    await pty.waitFor('Reply 7 done.');

    const chats = conversationChats(emu);
    // Neither cut (an older server) nor refused (truncate: false): every request fitted.
    expect(chats.map((c) => c.truncated)).toEqual(chats.map(() => false));
    expect(chats.filter((c) => c.error)).toEqual([]);
    expect(summarizerChats(emu).length).toBeGreaterThan(0);
    expect(factsIn(seenBy(chats.at(-1)!))).toContain('FACT-G1');
    expect(flat(pty.screen())).not.toContain('Ollama truncated the prompt');
  });
});

describe('7. the compaction after a tool output shortened to fit', () => {
  test('runs while that output is counted as it was sent: every report\'s "before" under 100%, none counting the whole output (250%)', async () => {
    run = await startToolRun({ args: ['--num-ctx', '2048'], config: 'tools:\n  confirm: []\n' });
    const { emu, pty, cwd } = run;
    writeFileSync(join(cwd, 'README.md'), bigReadme());
    emu.respondWith(compactionResponder({ chat: toolModel }));
    pty.write('Read the README please.\r');
    await pty.waitFor('Reply 2 done.');
    pty.write('hello again\r');
    await pty.waitFor('Reply 3 done.');
    const reports = [
      ...flat(pty.screen()).matchAll(
        /Compacted \d+ messages[^:]*: \S+ → \S+ tokens \((\d+)% → (\d+)% of 2k\)/g,
      ),
    ];
    expect(reports.length, flat(pty.screen())).toBeGreaterThan(0);
    // The README alone is ~5k tokens: counted whole, "before" read 250% of a window it never was in.
    for (const report of reports) expect(Number(report[1]), report[0]).toBeLessThanOrEqual(100);
    const chats = conversationChats(emu);
    expect(chats.map((c) => c.truncated)).toEqual(chats.map(() => false));
  });
});

describe('7. a tool output shortened to fit, once its turn is no longer the newest', () => {
  test('is sent and counted as it was sent, never whole: the meter does not jump, the message is not refused, a resume sends it so too, and /compact\'s "before" is the meter', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ochat-shortened-home-'));
    const cwd = mkdtempSync(join(tmpdir(), 'ochat-shortened-'));
    // Only the user compacts: nothing makes room when the next message comes.
    const config = 'tools:\n  confirm: []\ncompaction:\n  auto: false\n';
    const percent = (r: ToolRun) =>
      Number(
        /\((\d+)%\)[^(]*$/.exec(
          r.pty
            .screen()
            .match(/[\d.]+k?\/2k \(\d+%\)/g)
            ?.at(-1) ?? '',
        )?.[1],
      );
    const readmeSent = (request: ChatRequestRecord | undefined) =>
      request?.body.messages.find((m: { role: string }) => m.role === 'tool')?.content as string | undefined;
    try {
      writeFileSync(join(cwd, 'README.md'), bigReadme());
      run = await startToolRun({ args: ['--num-ctx', '2048'], config, home, cwd });
      run.emu.respondWith(compactionResponder({ chat: toolModel }));
      run.pty.write('Read the README please.\r');
      await run.pty.waitFor('Reply 2 done.');
      const asSent = readmeSent(conversationChats(run.emu)[1]);
      expect(asSent).toMatch(/\[output shortened to fit the context window/);
      const afterRead = percent(run);
      expect(afterRead).toBeGreaterThan(50);

      // Before: the next request carried the whole README (~5k tokens), refused at 2k; the meter read 273%.
      run.pty.write('hello again\r');
      await run.pty.waitFor('Reply 3 done.');
      expect(readmeSent(conversationChats(run.emu)[2])).toBe(asSent);
      await waitUntil('the meter after the reply', () => percent(run as ToolRun) >= afterRead);
      expect(percent(run)).toBeLessThanOrEqual(afterRead + 3);
      run.pty.write('/quit\r');
      await run.pty.exited;
      const id = run.pty.screen().match(/To continue this session: ochat -r (\S+)/)?.[1];
      expect(id).toBeDefined();
      await run.close();

      run = await startToolRun({ args: ['--num-ctx', '2048', '-r', String(id)], config, home, cwd });
      run.emu.respondWith(compactionResponder({ chat: toolModel }));
      run.pty.write('and after the resume\r');
      await run.pty.waitFor('Reply 1 done.');
      expect(readmeSent(conversationChats(run.emu)[0])).toBe(asSent);
      const before = percent(run);
      run.pty.write('/compact\r');
      await run.pty.waitFor(/Compacted \d+ messages/);
      const report = /Compacted \d+ messages[^:]*: \S+ → \S+ tokens \((\d+)% → (\d+)% of 2k\)/.exec(
        flat(run.pty.screen()),
      );
      expect(report, flat(run.pty.screen())).not.toBeNull();
      expect(Math.abs(Number(report?.[1]) - before)).toBeLessThanOrEqual(1);
      const chats = conversationChats(run.emu);
      expect(chats.map((c) => c.truncated)).toEqual(chats.map(() => false));
      expect(chats.filter((c) => c.error)).toEqual([]);
    } finally {
      await run?.close();
      run = undefined;
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A 2,000-line log of about 71 kB; line 1,000 holds `fact`. */
function bigLog(fact: string): string[] {
  return Array.from({ length: 2000 }, (_, i) =>
    i === 999 ? fact : `12:00 INFO worker ${i + 1} finished ok.`,
  );
}

/** Pastes `lines` as a terminal does (bracketed), after `before`. */
async function paste(r: ToolRun, before: string, lines: string[]): Promise<void> {
  r.pty.write(before);
  await r.pty.writeInPieces(`\x1b[200~${lines.join('\r')}\x1b[201~`);
  await r.pty.waitFor(`[pasted ${lines.length.toLocaleString('en')} lines]`);
}

/** Chats `Question <n>, FACT-q<n>` until the meter shows at least `percent`% of the window; returns the turns sent. */
async function fillTo(r: ToolRun, percent: number): Promise<number> {
  let n = 0;
  for (;;) {
    const shown = /toolbot · \S+\/2k \((\d+)%\)/.exec(
      r.pty
        .screen()
        .split('\n')
        .findLast((l) => l.includes('toolbot · ')) ?? '',
    );
    if (shown && Number(shown[1]) >= percent) return n;
    n += 1;
    r.pty.write(`Question ${n}, FACT-q${n}: ${'lorem ipsum '.repeat(10).trim()}\r`);
    await r.pty.waitFor(`Reply ${n} done.`);
  }
}

describe('2. "Send it anyway?" → y', () => {
  test('sends that one message, says once what the model will not see, pauses nothing; the next turn compacts it and fits', async () => {
    run = await startToolRun({ args: ['--num-ctx', '2048'] });
    const { emu, pty } = run;
    emu.respondWith(compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n} done.` }) }));
    const turns = await fillTo(run, 60);
    await paste(run, 'look at this log: ', bigLog('FACT-P1 the paste secret is kiwi'));
    pty.write('\r');
    await pty.waitFor('Send it anyway? (y/n)');
    await pty.answer('y');
    await pty.waitFor(`Reply ${turns + 1} done.`);
    pty.write('what next?\r');
    await pty.waitFor(`Reply ${turns + 2} done.`);

    const screen = flat(pty.screen());
    expect(
      screen.match(/Sent anyway: the request is about \S+ tokens and num_ctx is 2k, so Ollama cuts it/g),
    ).toHaveLength(1);
    expect(screen).not.toContain('Compaction failed');
    expect(screen).not.toContain('paused');
    expect(screen).not.toContain('Ollama truncated the prompt');
    expect(screen).toMatch(/Compacted \d+ messages/);
    const chats = conversationChats(emu);
    // Only the message sent anyway was cut (as the user was told); the next one fits.
    expect(chats.filter((c) => c.truncated)).toHaveLength(1);
    expect(chats.at(-2)!.truncated).toBe(true);
    expect(chats.at(-1)!.truncated).toBe(false);
    expect(chats.filter((c) => c.error)).toEqual([]);
    // Compacted in parts on the next turn: the fact in the paste's middle reaches the model.
    expect(screen).toMatch(/Compacted \d+ messages \(a 7\d kB paste condensed in (\d+) parts\)/);
    expect(Number(/condensed in (\d+) parts/.exec(screen)![1])).toBeGreaterThan(5);
    expect(factsIn(seenBy(chats.at(-1)!))).toEqual(expect.arrayContaining(['FACT-P1', 'FACT-q1']));
  });
});

describe('3. a fact in the middle of a big paste', () => {
  test('reaches the summary: the paste is condensed on its own and the report says so; /summary and later requests keep FACT-P1', async () => {
    run = await startToolRun({ args: ['--num-ctx', '32768'] });
    const { emu, pty } = run;
    emu.respondWith(compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n} done.` }) }));
    pty.write('remember FACT-U1 my name is Ada\r');
    await pty.waitFor('Reply 1 done.');
    await paste(run, 'look at this log: ', bigLog('FACT-P1 the paste secret is kiwi'));
    pty.write('\r');
    await pty.waitFor('Reply 2 done.');
    pty.write('thanks\r');
    await pty.waitFor('Reply 3 done.');
    pty.write('/compact\r');
    await pty.waitFor('condensed in');
    expect(flat(pty.screen())).toMatch(/Compacted \d+ messages \(a 7\d kB paste condensed in \d+ parts?\): /);
    pty.write('/summary\r');
    await pty.waitFor('FACT-P1');
    pty.write('what was the secret?\r');
    await pty.waitFor('Reply 4 done.');

    const last = conversationChats(emu).at(-1)!;
    expect(last.truncated).toBe(false);
    expect(conversationChats(emu).filter((c) => c.error)).toEqual([]);
    expect(factsIn(String(last.keptMessages[0].content))).toEqual(
      expect.arrayContaining(['FACT-U1', 'FACT-P1']),
    );
    // Every line of the paste was in some summarizer request.
    const shown = summarizerChats(emu)
      .map((c) => String(c.body.messages[1].content))
      .join('\n');
    for (const line of bigLog('FACT-P1 the paste secret is kiwi')) expect(shown).toContain(line);
  });

  // With reuse_cache: auto the chat model sees the paste whole in the request it continues: nothing is unseen.
  test('with compaction.cut_long_messages: true and the standalone prompt, the report names the cut paste and how much the summarizer never saw', async () => {
    run = await startToolRun({
      args: ['--num-ctx', '32768'],
      config: 'compaction:\n  cut_long_messages: true\n  reuse_cache: off\n',
    });
    const { emu, pty } = run;
    emu.respondWith(compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n} done.` }) }));
    await paste(run, 'look at this log: ', bigLog('FACT-P1 the paste secret is kiwi'));
    pty.write('\r');
    await pty.waitFor('Reply 1 done.');
    pty.write('thanks\r');
    await pty.waitFor('Reply 2 done.');
    pty.write('/compact\r');
    await pty.waitFor(/chars\s+unseen/);
    expect(flat(pty.screen())).toMatch(
      /Compacted 2 messages: .*; cut to their head for the summarizer \(compaction\.cut_long_messages\): \[0\] a 7\d kB paste, [\d,]+ of [\d,]+ chars unseen/,
    );
  });
});

describe('a window smaller than ochat itself needs', () => {
  test('--num-ctx 10 and /set num_ctx 100 are refused, naming the smallest that works; that one is taken', async () => {
    run = await startToolRun({ args: ['--num-ctx', '10'] });
    const { pty } = run;
    await pty.waitFor(/Using 8192 \(the\s+default\)/);
    const refused =
      /--num-ctx 10 is too small: the system message takes about \d+ tokens, the tool definitions about (\d+), and compaction needs room to work; the smallest that works is (\d+)\./.exec(
        flat(pty.screen()),
      );
    expect(refused).not.toBeNull();
    const [, tools, smallest] = refused!;
    expect(Number(tools)).toBeGreaterThan(400);
    pty.write('/set num_ctx 100\r');
    await pty.waitFor(/num_ctx stays\s+8192\./);
    expect(flat(pty.screen())).toContain(`num_ctx 100 is too small`);
    expect(flat(pty.screen())).toContain(`the smallest that works is ${smallest}.`);
    // Refused, not set: no success line after the error.
    expect(flat(pty.screen())).not.toContain('num_ctx = 8192');
    pty.write(`/set num_ctx ${smallest}\r`);
    await pty.waitFor(`✓ num_ctx = ${smallest}`);
  });
});
