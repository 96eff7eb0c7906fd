/**
 * The file tools' sandbox end to end: a hard link in the working directory to a file outside it
 * is neither read, searched nor written (and says why); a path the sandbox refuses is refused
 * before the user is asked about it.
 */
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startToolRun, type ToolRun, toolMessagesOf } from '../support/tools-e2e.js';

let run: ToolRun | undefined;
afterEach(async () => {
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
