/**
 * Instruction files (AGENTS.md) end to end: the built CLI in a PTY against the emulator. They
 * reach the model in the system message of every request, the user's own file first and the
 * working directory's last, are counted (/context), survive /compact, and /instructions shows them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { INSTRUCTIONS_FOOTER, INSTRUCTIONS_HEADER } from '../../src/compaction/instructions-section.js';
import { SUMMARY_HEADER } from '../../src/compaction/summary.js';
import { compactionResponder, conversationChats } from '../support/compaction-summarizer.js';
import { type ChatRun, placeForRuns, removePlaces, startChat, waitForChats } from '../support/e2e-chat.js';

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
  removePlaces();
});

/**
 * A repository (`work/`, holding `.git`) with an AGENTS.md at its root and one in `work/app/`,
 * an AGENTS.md above the repository (not read), and the user's own in ochat's config directory.
 */
function project(configYaml?: string): { home: string; cwd: string } {
  const place = placeForRuns('ochat-agents-');
  const root = join(place.cwd, '..');
  const app = join(place.cwd, 'app');
  mkdirSync(join(place.cwd, '.git'));
  mkdirSync(app);
  mkdirSync(join(place.home, 'config', 'ochat'), { recursive: true });
  writeFileSync(join(root, 'AGENTS.md'), 'OUTSIDE-RULE-0: never read, it is above the repository.\n');
  writeFileSync(join(place.home, 'config', 'ochat', 'AGENTS.md'), 'USER-RULE-1: answer briefly.\n');
  writeFileSync(join(place.cwd, 'AGENTS.md'), '# Repo\nREPO-RULE-2: run npm test before committing.\n');
  writeFileSync(join(app, 'AGENTS.md'), 'APP-RULE-3: the app uses tabs.\n');
  if (configYaml) writeFileSync(join(place.home, 'config', 'ochat', 'config.yml'), configYaml);
  return { home: place.home, cwd: app };
}

/** Replies of about 150 tokens, each ending in `Reply <n> done.`. */
const chatReplies = (_req: unknown, n: number) => ({
  content: `${'lorem ipsum '.repeat(50).trim()}\n\nReply ${n} done.`,
});

describe('instruction files', () => {
  test('reach the model in every request, in order, are counted, survive /compact, and /instructions shows them', async () => {
    const { home, cwd } = project();
    run = await startChat({
      models: [{ name: 'chat:latest' }],
      args: ['-m', 'chat', '--num-ctx', '4096'],
      pty: { home, cwd, cols: 120, rows: 40 },
    });
    const { emu, pty } = run;
    emu.respondWith(compactionResponder({ chat: chatReplies }));
    for (let n = 1; n <= 4; n++) {
      pty.write(`Question ${n}, FACT-q${n}?\r`);
      await pty.waitFor(`Reply ${n} done.`);
    }
    const systemOf = (i: number) => {
      const first = conversationChats(emu)[i].body.messages[0];
      expect(first.role).toBe('system');
      return first.content as string;
    };
    for (let i = 0; i < 4; i++) {
      const system = systemOf(i);
      expect(system).toContain(INSTRUCTIONS_HEADER);
      const order = ['USER-RULE-1', 'REPO-RULE-2', 'APP-RULE-3'].map((rule) => system.indexOf(rule));
      expect(order.every((at) => at > 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(system).not.toContain('OUTSIDE-RULE-0');
      // Each file is named as the user reads its path.
      expect(system).toContain('From ~/config/ochat/AGENTS.md:');
      expect(system).toContain('From ../AGENTS.md:');
      expect(system).toContain('From AGENTS.md:');
    }

    // Counted: /context has their row, beside the system prompt's.
    pty.write('/context\r');
    await pty.waitFor(/instructions\s+\d+\s+\d+%/);

    pty.write('/compact\r');
    await pty.waitFor(/Compacted \d+ messages/);
    pty.write('And now?\r');
    await pty.waitFor('Reply 5 done.');
    const after = systemOf(4);
    // Kept whole, like the system prompt, and before the summary.
    expect(after).toContain('APP-RULE-3');
    expect(after).toContain('USER-RULE-1');
    expect(after.indexOf(INSTRUCTIONS_FOOTER)).toBeLessThan(after.indexOf(SUMMARY_HEADER));
    expect(after.indexOf(SUMMARY_HEADER)).toBeGreaterThan(0);

    pty.write('/instructions\r');
    await pty.waitFor(/Instruction files in the system message of every request/);
    await pty.waitFor('── AGENTS.md ──');
    const screen = pty.screen();
    expect(screen).toMatch(/~\/config\/ochat\/AGENTS\.md\s+~\d+ tokens/);
    expect(screen).toMatch(/\.\.\/AGENTS\.md\s+~\d+ tokens/);
  });

  test('instructions_files: [] sends none; a file over a quarter of the window is sent whole, and said', async () => {
    const off = project('instructions_files: []\n');
    run = await startChat({ args: ['-m', 'llama3.2'], pty: { home: off.home, cwd: off.cwd } });
    run.pty.write('hi\r');
    await run.pty.waitFor('hi');
    await waitForChats(run.emu, 1);
    expect(JSON.stringify(run.emu.chats[0].body.messages)).not.toContain('RULE');
    await run.close();

    const big = project();
    const rules = Array.from({ length: 250 }, (_, i) => `BIG-RULE-${i}: keep every line of this file.`);
    writeFileSync(join(big.cwd, 'AGENTS.md'), `${rules.join('\n')}\n`);
    run = await startChat({
      args: ['-m', 'llama3.2', '--num-ctx', '8192'],
      pty: { home: big.home, cwd: big.cwd, cols: 120 },
    });
    await run.pty.waitFor(/The instruction files \(.*\) take ~[\d.]+k tokens, \d+% of the 8k window/);
    run.pty.write('hi\r');
    await waitForChats(run.emu, 1);
    const system = run.emu.chats[0].body.messages[0].content as string;
    expect(system).toContain('BIG-RULE-0:');
    expect(system).toContain('BIG-RULE-249:');
  });
});
