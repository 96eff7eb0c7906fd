/**
 * `!command` end to end: the built CLI in a PTY runs what the user typed in the working directory,
 * shows its output, and sends it with the next message; Ctrl+C stops it, hostile output never
 * reaches the terminal, long output is capped, and a resumed session still has it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { exitCode } from '../support/e2e-chat.js';
import type { ChatMessageLike, ChatRequestRecord } from '../support/emulator.js';
import { ALL_HOSTILE, actingSequencesIn, leakedSequences } from '../support/hostile-text.js';
import { cpuMs } from '../support/process-cpu.js';
import { spawnOchat } from '../support/pty-session.js';
import { E2E_TOOL_MODEL, startToolRun, type ToolRun } from '../support/tools-e2e.js';
import { waitUntil } from '../support/wait-until.js';

let run: ToolRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

const PROMPT = 'Type a message';

/** The user messages of a request. */
function userMessages(request: ChatRequestRecord): { role: string; content: string }[] {
  return (request.body.messages as ChatMessageLike[])
    .filter((m) => m.role === 'user')
    .map((m) => ({ role: m.role, content: m.content ?? '' }));
}

/** Whether a process still runs (a zombie counts as gone). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

describe('!command', () => {
  test('runs in the working directory, shows the output, and the next message carries it', async () => {
    run = await startToolRun();
    const { pty, cwd } = run;
    writeFileSync(join(cwd, 'FACT-file.txt'), '');
    pty.write('!echo hello from sh; ls; cat\r');
    await pty.waitFor('exit 0');
    const screen = pty.screen();
    expect(screen).toContain('! echo hello from sh; ls; cat');
    expect(screen).toContain('  hello from sh');
    expect(screen).toContain('  FACT-file.txt');
    // Nothing goes to the model until the user says something.
    expect(run.chatRequests()).toHaveLength(0);

    pty.write('what is in this folder?\r');
    await pty.waitFor('Echo:');
    const [request] = await run.waitForRequests(1);
    // One user message, so user/assistant alternation holds: the run, then what was typed.
    const users = userMessages(request);
    expect(users).toHaveLength(1);
    expect(users[0].content).toBe(
      `I ran a shell command in ${cwd} (exit code 0); this is what it printed:\n` +
        '```console\n$ echo hello from sh; ls; cat\nhello from sh\nFACT-file.txt\n```\n\n' +
        'what is in this folder?',
    );
  });

  test('Ctrl+C stops sleep 30 and its whole process group within a second; the app stays usable', async () => {
    run = await startToolRun();
    const { pty, cwd } = run;
    // A child in the group that ignores SIGTERM: only the whole group's SIGKILL stops it.
    pty.write(`!sh -c 'trap "" TERM; sleep 30' & echo $! > child.pid; echo started; sleep 30\r`);
    await pty.waitFor('started');
    const pressed = Date.now();
    pty.write('\x03');
    // The bound is the point: the cancel must not wait for sleep 30, nor for the pipes the child
    // holds open. Generous, as a loaded machine delays the key and the redraw (1 s failed at load
    // 23); ~0.3 s on an idle one (the pipes' linger after the shell's exit).
    await pty.waitFor('✗ cancelled', 5_000, { settle: false });
    expect(Date.now() - pressed).toBeLessThan(5_000);
    const child = Number(readFileSync(join(cwd, 'child.pid'), 'utf8'));
    await waitUntil('the child process ended with its group', () => !isAlive(child));

    pty.write('!echo after\r');
    await pty.waitFor('exit 0');
    pty.write('still there?\r');
    await pty.waitFor('Echo:');
    const [request] = await run.waitForRequests(1);
    const [user] = userMessages(request);
    expect(user.content).toContain('(cancelled by the user; the process group was killed)');
    expect(user.content).toContain('started');
    expect(user.content).toContain('$ echo after\nafter\n');
    expect(user.content.endsWith('still there?')).toBe(true);
  });

  for (const signal of ['SIGHUP', 'SIGTERM'] as const) {
    test(`${signal} to ochat (a closed terminal) ends a running !command's process group, as /quit does`, async () => {
      run = await startToolRun();
      const { pty, cwd } = run;
      // A child that ignores SIGTERM: only the group's SIGKILL after the grace ends it.
      pty.write(
        `!sh -c 'trap "" TERM; sleep 60' & echo $! > child.pid; echo $$ > shell.pid; echo started; sleep 60\r`,
      );
      await pty.waitFor('started');
      const pids = ['child.pid', 'shell.pid'].map((file) => Number(readFileSync(join(cwd, file), 'utf8')));
      expect(pids.every(isAlive)).toBe(true);
      process.kill(pty.pid, signal);
      expect(await exitCode(pty)).toBe(signal === 'SIGHUP' ? 129 : 143);
      // Before, both were left running, orphaned, for their whole minute.
      await waitUntil('the command and its child ended with ochat', () => !pids.some(isAlive), {
        timeoutMs: 3_000,
      });
    });
  }

  test('a command that floods output (yes) is shown live, capped, and still stopped by Ctrl+C at once', async () => {
    run = await startToolRun();
    const { pty } = run;
    pty.write('!yes FLOOD-LINE\r');
    // Lines of output, not the typed command line.
    await pty.waitFor(/FLOOD-LINE *\nFLOOD-LINE *\n/, 10_000, { settle: false });
    // The status line says what runs, not that a reply streams.
    await pty.waitFor(/toolbot · .*running yes FLOOD-LINE…/, 10_000, { settle: false });
    expect(pty.screen()).not.toContain('streaming ·');
    // A key starved by the flood waits as long as yes runs: the app's own work until the key took
    // effect shows it at any load, where the wall time also counts waiting for a core (1 s failed
    // at load 23).
    const pressed = Date.now();
    const cpuAtPress = cpuMs(pty.pid);
    pty.write('\x03');
    await pty.waitFor('✗ cancelled', 10_000, { settle: false });
    const cpu = cpuMs(pty.pid) - cpuAtPress;
    process.stdout.write(`yes flood: Ctrl+C took ${Date.now() - pressed} ms, ${cpu} ms of ochat's CPU\n`);
    expect(cpu).toBeLessThan(1_000);
    pty.write('how much?\r');
    await pty.waitFor('Echo:');
    const [request] = await run.waitForRequests(1);
    const [user] = userMessages(request);
    expect(user.content).toMatch(/\[… [\d,]+ characters cut …\]/);
    expect(user.content.length).toBeLessThan(21_000);
  });

  test('hostile escape sequences in the output never reach the terminal or the model', async () => {
    run = await startToolRun();
    const { pty, cwd } = run;
    writeFileSync(join(cwd, 'hostile.txt'), `before ${ALL_HOSTILE} after-marker\n`);
    pty.write('!cat hostile.txt\r');
    await pty.waitFor('exit 0');
    expect(pty.screen()).toContain('after-marker');
    expect(pty.screen()).toContain('w9');
    expect(leakedSequences(pty.raw())).toEqual([]);
    expect(actingSequencesIn(pty.raw())).toEqual([]);

    pty.write('explain\r');
    await pty.waitFor('Echo:');
    const [request] = await run.waitForRequests(1);
    const [user] = userMessages(request);
    expect(user.content).toContain('after-marker');
    expect(user.content).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });

  test('long output is capped at tools.max_output_chars, head and tail kept, for the screen and the model', async () => {
    run = await startToolRun({ config: 'tools:\n  max_output_chars: 2000\n' });
    const { pty } = run;
    pty.write('!seq 1 50000\r');
    await pty.waitFor('exit 0', 10_000);
    expect(pty.screen()).toMatch(/\[… [\d,]+ characters cut …\]/);
    expect(pty.screen()).toContain('  50000');
    pty.write('count them\r');
    await pty.waitFor('Echo:');
    const [request] = await run.waitForRequests(1);
    const [user] = userMessages(request);
    expect(user.content).toMatch(/\n1\n2\n3\n/);
    expect(user.content).toMatch(/\n49999\n50000\n/);
    expect(user.content.length).toBeLessThan(2_300);
  });

  test('! alone explains; \\! sends a message starting with !; ↑ brings the ! line back', async () => {
    run = await startToolRun();
    const { pty, cwd } = run;
    pty.write('!  \r');
    await pty.waitFor('Type a shell command after !');
    pty.write('\\!important: is this a shell command?\r');
    await pty.waitFor('Echo:');
    const [request] = await run.waitForRequests(1);
    expect(userMessages(request).at(-1)?.content).toBe('!important: is this a shell command?');
    expect(existsSync(join(cwd, 'important:'))).toBe(false);

    pty.write('!echo recall-me\r');
    await pty.waitFor('  recall-me');
    await pty.waitFor(PROMPT);
    pty.write('\x1b[A');
    await pty.waitFor('› !echo recall-me');
  });

  test('compaction summarizes the run and keeps one line for it in the tool log', async () => {
    run = await startToolRun({
      // Keep only the newest turn verbatim, so /compact folds the run into the summary.
      config: 'compaction:\n  keep_recent:\n    ratio: 0.01\n    min_tokens: 1\n',
    });
    const { pty } = run;
    pty.write('!seq 1 400\r');
    await pty.waitFor('exit 0');
    pty.write('what are these?\r');
    await pty.waitFor('Echo:');
    pty.write('thanks\r');
    await pty.waitFor('Echo: thanks');
    pty.write('/compact\r');
    // The run is the oldest turn; the two after it are small enough to stay verbatim.
    await pty.waitFor(/Compacted 1 message: /);
    pty.write('and now?\r');
    await pty.waitFor('Echo: and now?');
    const last = (await run.waitForRequests(3)).at(-1)!;
    const messages = last.body.messages as ChatMessageLike[];
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('- shell: seq 1 400 run by the user (exit 0)');
    expect(JSON.stringify(messages)).not.toContain('\\n399\\n');
  });

  test('a resumed session keeps the run: shown on screen and sent with the next message', async () => {
    run = await startToolRun();
    const { pty, cwd } = run;
    pty.write('!echo FACT-resumed-output\r');
    await pty.waitFor('exit 0');
    pty.write('/quit\r');
    expect(await exitCode(pty)).toBe(0);

    const second = spawnOchat(['-m', E2E_TOOL_MODEL, '--continue'], {
      cwd,
      home: pty.home,
      cols: 120,
      rows: 40,
      env: { OLLAMA_HOST: run.emu.url },
    });
    try {
      await second.waitFor('Resumed session');
      await second.waitFor('num_ctx');
      expect(second.screen()).toContain('! echo FACT-resumed-output');
      expect(second.screen()).toContain('exit 0');
      second.write('and?\r');
      await second.waitFor('Echo:');
      const [request] = await run.waitForRequests(1);
      const [user] = userMessages(request);
      expect(user.content).toContain('$ echo FACT-resumed-output\nFACT-resumed-output\n');
      expect(user.content.endsWith('and?')).toBe(true);
    } finally {
      await second.dispose();
    }
  });
});
