/**
 * The file tools' sandbox end to end: a hard link in the working directory to a file outside it
 * is neither read, searched nor written (and says why); a path the sandbox refuses is refused
 * before the user is asked about it.
 */
import type { ChildProcess } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { canSwap, startSwapper } from '../support/sandbox-swapper.js';
import { startToolRun, type ToolRun, toolMessagesOf } from '../support/tools-e2e.js';

let run: ToolRun | undefined;
let swapper: ChildProcess | undefined;
afterEach(async () => {
  swapper?.kill('SIGKILL');
  swapper = undefined;
  await run?.close();
  run = undefined;
});

/** A file outside the working directory, and a hard link to it inside. */
function hardLinkedSecret(cwd: string) {
  const outside = join(dirname(cwd), 'outside');
  mkdirSync(outside);
  const secret = join(outside, 'secret.txt');
  writeFileSync(secret, 'SECRET-CONTENT of a file outside\n');
  linkSync(secret, join(cwd, 'innocent.txt'));
  return secret;
}

describe('a hard link to a file outside the working directory', () => {
  test('read_file, search_files and write_file refuse it and say why; the outside file is unchanged', async () => {
    run = await startToolRun();
    const { emu, pty, cwd } = run;
    const secret = hardLinkedSecret(cwd);
    emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'innocent.txt' } }] },
      { toolCalls: [{ name: 'search_files', arguments: { pattern: 'SECRET' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'innocent.txt', content: 'PWNED\n' } }] },
      { content: 'All tried.' },
    );
    pty.write('try the link\r');
    await pty.waitFor('All tried.');
    // Refused before asking: no question was shown for the write.
    expect(pty.screen()).not.toContain('Allow write_file');
    const [read, search, write] = toolMessagesOf(run.chatRequests().at(-1)!).map((m) => m.content);
    expect(read).toMatch(/"innocent.txt" has 2 hard links: the same file may also be outside/);
    expect(read).not.toContain('SECRET-CONTENT');
    expect(search).toMatch(
      /^No matches \(searched 0 files\)\.\n\[1 file with more than one hard link not searched/,
    );
    expect(write).toMatch(/Refused: "innocent.txt" has 2 hard links.*not written/);
    expect(readFileSync(secret, 'utf8')).toBe('SECRET-CONTENT of a file outside\n');
    expect(pty.screen()).toMatch(/✗ read_file innocent\.txt — read innocent\.txt/);
  });

  test('reading it is allowed inside a directory listed in tools.allowed_paths', async () => {
    run = await startToolRun({ config: 'tools:\n  allowed_paths: ["."]\n' });
    const { emu, pty, cwd } = run;
    hardLinkedSecret(cwd);
    emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'innocent.txt' } }] },
      { content: 'Read.' },
    );
    pty.write('read the link\r');
    await pty.waitFor('Read.');
    const [read] = toolMessagesOf(run.chatRequests().at(-1)!).map((m) => m.content);
    expect(read).toContain('SECRET-CONTENT');
  });
});

describe('write_file checks the path before asking', () => {
  test('a symlink to /etc/passwd and sub/../../outside are refused without a question', async () => {
    run = await startToolRun();
    const { emu, pty, cwd } = run;
    mkdirSync(join(cwd, 'sub'));
    symlinkSync('/etc/passwd', join(cwd, 'passwd-link'));
    const before = readFileSync('/etc/passwd', 'utf8');
    emu.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'passwd-link', content: 'x\n' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'sub/../../outside.txt', content: 'x\n' } }] },
      { content: 'Both refused.' },
    );
    pty.write('write outside\r');
    await pty.waitFor('Both refused.');
    expect(pty.screen()).not.toContain('Allow write_file');
    const [link, dots] = toolMessagesOf(run.chatRequests().at(-1)!).map((m) => m.content);
    expect(link).toMatch(/Access denied: "passwd-link" leads through a symbolic link to \/etc\/passwd/);
    expect(dots).toMatch(/Access denied: "sub\/..\/..\/outside.txt" is outside the working directory/);
    expect(readFileSync('/etc/passwd', 'utf8')).toBe(before);
    expect(pty.screen()).toMatch(/✗ write_file passwd-link — /);
  });
});

/** Tries of each tool, as parallel calls of a few replies. */
const CALLS_PER_REPLY = 25;
const REPLIES = 8;

describe.skipIf(!canSwap)(
  'a process swapping race/ for a link to a folder outside, while the model uses it',
  () => {
    test(`read_file and write_file never reach outside in ${CALLS_PER_REPLY * REPLIES} tries each`, async () => {
      // A window the 400 calls and results of one turn fit in (the newest turn is never compacted).
      run = await startToolRun({
        config: `tools:\n  confirm: []\n  max_steps: ${4 * REPLIES}\n`,
        args: ['--num-ctx', '131072'],
      });
      const { emu, pty, cwd } = run;
      const outside = join(dirname(cwd), 'outside');
      mkdirSync(join(cwd, 'race'));
      mkdirSync(outside);
      writeFileSync(join(cwd, 'race', 'f.txt'), 'inside: harmless\n');
      writeFileSync(join(outside, 'f.txt'), 'SECRET-OUTSIDE\n');
      symlinkSync(outside, join(cwd, 'swap'));
      const calls = (name: string, args: (i: number) => Record<string, unknown>) =>
        Array.from({ length: REPLIES }, (_, reply) => ({
          toolCalls: Array.from({ length: CALLS_PER_REPLY }, (_, i) => ({
            name,
            arguments: args(reply * CALLS_PER_REPLY + i),
          })),
        }));
      emu.enqueue(
        ...calls('read_file', () => ({ path: 'race/f.txt' })),
        ...calls('write_file', (i) => ({ path: 'race/f.txt', content: `PWNED ${i}\n` })),
        { content: 'All tried.' },
      );
      swapper = await startSwapper(cwd);
      pty.write('read and write race/f.txt\r');
      await pty.waitFor(/All tried\.|Stopped after|\(y\/n|does not fit/, 400_000);
      expect(pty.screen()).toContain('All tried.');
      swapper.kill('SIGKILL');
      const results = toolMessagesOf(emu.chats.at(-1)!).map((m) => String(m.content));
      expect(results).toHaveLength(2 * REPLIES * CALLS_PER_REPLY);
      expect(results.filter((content) => content.includes('SECRET'))).toEqual([]);
      expect(readFileSync(join(outside, 'f.txt'), 'utf8')).toBe('SECRET-OUTSIDE\n');
      expect(readdirSync(outside)).toEqual(['f.txt']);
      // The race was real: some tries got through to the inside file, others were refused.
      expect(results.some((content) => content.includes('harmless'))).toBe(true);
      console.log(
        `raced through the CLI: ${results.filter((c) => c.includes('harmless')).length} reads of the inside file, ${results.filter((c) => /changed while it was being used/.test(c)).length} tries refused as a race, 0 escapes`,
      );
    }, 450_000);
  },
);
