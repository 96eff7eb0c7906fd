/**
 * Odd files in the sessions directory, under the built CLI: a FIFO, a symlink to /dev/zero and a
 * directory named `*.jsonl` neither hang nor grow `--list-sessions` and `--continue`; a session
 * with a BOM is read; a 0-byte file or a symlink to a system file is said to exist, and why it
 * cannot be opened, instead of "no saved session".
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, exitCode, startChat } from '../support/e2e-chat.js';
import { runOchat } from '../support/e2e-process.js';

const dirs: string[] = [];
const runs: ChatRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function place() {
  const root = mkdtempSync(join(tmpdir(), 'ochat-session-files-'));
  dirs.push(root);
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  const sessions = join(home, 'data', 'ochat', 'sessions');
  mkdirSync(sessions, { recursive: true });
  mkdirSync(cwd);
  return { home, cwd, sessions, env: { XDG_DATA_HOME: join(home, 'data') } };
}

/** A session file's text as ochat writes it: a header and one question and answer. */
function sessionText(id: string, cwd: string, question: string): string {
  const at = '2026-12-03T06:00:00.000Z';
  const lines = [
    { type: 'session', version: 1, id, created: at, cwd, model: 'chat', options: {} },
    { type: 'message', message: { role: 'user', content: question, id: 1, turn: 1, at } },
    {
      type: 'message',
      message: { role: 'assistant', content: `Answer to ${question}.`, id: 2, turn: 1, at },
    },
  ];
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

const MODELS = [{ name: 'chat:latest', capabilities: ['completion'] }];

describe('odd files in the sessions directory', () => {
  test('a FIFO, a symlink to /dev/zero and a directory named *.jsonl: --list-sessions and --continue neither hang nor read them', async () => {
    const where = place();
    execFileSync('mkfifo', [join(where.sessions, '20261203-000000-fifo.jsonl')]);
    symlinkSync('/dev/zero', join(where.sessions, '20261203-000000-zero.jsonl'));
    mkdirSync(join(where.sessions, '20261203-000000-dir0.jsonl'));
    writeFileSync(
      join(where.sessions, '20261203-060000-good.jsonl'),
      sessionText('20261203-060000-good', where.cwd, 'Q-good'),
    );

    const listed = await runOchat(['--list-sessions'], { env: where.env, timeoutMs: 5_000 });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/20261203-060000-good +chat +2 .*Q-good/);
    expect(listed.stdout).toContain('3 files in the sessions directory cannot be opened as a session:');
    expect(listed.stdout).toMatch(/fifo\.jsonl: it is a named pipe \(FIFO\)/);
    expect(listed.stdout).toMatch(
      /zero\.jsonl: it is a symbolic link to \/dev\/zero; it is a device, not a regular file/,
    );
    expect(listed.stdout).toMatch(/dir0\.jsonl: it is a directory, not a regular file/);

    const run = await startChat({
      models: MODELS,
      args: ['--continue'],
      pty: { home: where.home, cwd: where.cwd },
      readyText: 'Resumed session 20261203-060000-good',
    });
    runs.push(run);
    expect(run.pty.screen()).toContain('Answer to Q-good.');
    run.pty.write('/quit\r');
    expect(await exitCode(run.pty)).toBe(0);
  });

  test('a session with a UTF-8 BOM (an editor saved it) is resumed', async () => {
    const where = place();
    writeFileSync(
      join(where.sessions, '20261203-060000-bom0.jsonl'),
      `\uFEFF${sessionText('20261203-060000-bom0', where.cwd, 'Q-bom')}`,
    );
    const run = await startChat({
      models: MODELS,
      args: ['--continue'],
      pty: { home: where.home, cwd: where.cwd },
      readyText: 'Resumed session 20261203-060000-bom0',
    });
    runs.push(run);
    expect(run.pty.screen()).toContain('Answer to Q-bom.');
    expect(run.pty.screen()).not.toContain('Read-only');
  });

  test('a 0-byte file and a symlink to a system file: said to exist, and why they cannot be opened', async () => {
    const where = place();
    writeFileSync(join(where.sessions, '20261203-060000-void.jsonl'), '');
    symlinkSync('/etc/passwd', join(where.sessions, '20261203-060000-pass.jsonl'));
    const resumed = await runOchat(['--continue'], { env: where.env, cwd: where.cwd });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('ochat: no saved session was started in this directory.');
    expect(resumed.stderr).toMatch(/void\.jsonl: it is empty \(0 bytes\)/);
    expect(resumed.stderr).toMatch(/pass\.jsonl: it is a symbolic link to \/etc\/passwd; not a session file/);

    const named = await runOchat(['-r', '20261203-060000-void'], { env: where.env, cwd: where.cwd });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(
      'ochat: Session 20261203-060000-void exists but cannot be opened: it is empty (0 bytes).',
    );
  });
});
