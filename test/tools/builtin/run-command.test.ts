import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandTool } from '../../../src/tools/builtin/run-command.js';
import { waitUntil } from '../../support/wait-until.js';
import { makeContext, makeTempDir } from '../temp-sandbox.js';

/** Whether a process still runs; a zombie (dead, not yet reaped by an init that never reaps) counts as dead. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

describe('run_command', () => {
  it('runs in cwd and captures stdout and stderr with exit 0', async () => {
    const cwd = makeTempDir();
    const args = { command: 'pwd; echo oops >&2' };
    const outcome = await runCommandTool.run(args, makeContext(cwd));
    expect(outcome.ok).toBe(true);
    expect(outcome.output).toContain(cwd);
    expect(outcome.output).toContain('oops');
    expect(outcome.output).toContain('[exit code 0]');
    expect(runCommandTool.summaryLine(args, outcome)).toBe('✅ pwd; echo oops >&2 (exit 0)');
  });

  it('reports a non-zero exit code as a failure', async () => {
    const args = { command: 'exit 2' };
    const outcome = await runCommandTool.run(args, makeContext(makeTempDir()));
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toBe('(no output)\n[exit code 2]');
    expect(runCommandTool.summaryLine(args, outcome)).toBe('❌ exit 2 (exit 2)');
  });

  it('kills the whole process group on timeout', async () => {
    const cwd = makeTempDir();
    const args = { command: 'sleep 30 & echo $! > child.pid; wait' };
    const outcome = await runCommandTool.run(args, makeContext(cwd, { commandTimeoutMs: 300 }));
    expect(outcome.ok).toBe(false);
    expect(outcome.details).toMatchObject({ timedOut: true });
    expect(runCommandTool.summaryLine(args, outcome)).toBe(`❌ ${args.command} (timed out after 300ms)`);
    const childPid = Number(fs.readFileSync(path.join(cwd, 'child.pid'), 'utf8'));
    // The background child got SIGTERM with its group; give the kernel a moment to reap it.
    await waitUntil('the background child reaped with its group', () => !isAlive(childPid));
  });

  it('formats whole-second timeouts like "60s"', () => {
    const outcome = {
      ok: false,
      output: '',
      details: { exitCode: null, signal: 'SIGTERM', timedOut: true, aborted: false, timeoutMs: 60_000 },
    };
    expect(runCommandTool.summaryLine({ command: 'sleep 100' }, outcome)).toBe(
      '❌ sleep 100 (timed out after 60s)',
    );
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const args = { command: 'echo started; sleep 30' };
    const running = runCommandTool.run(args, makeContext(makeTempDir(), { signal: controller.signal }));
    setTimeout(() => controller.abort(), 200);
    const outcome = await running;
    expect(outcome.ok).toBe(false);
    expect(outcome.details).toMatchObject({ aborted: true, timedOut: false });
    expect(outcome.output).toContain('cancelled by the user');
    expect(runCommandTool.summaryLine(args, outcome)).toBe('❌ echo started; sleep 30 (cancelled)');
  });

  it('does not start when already aborted', async () => {
    const cwd = makeTempDir();
    const controller = new AbortController();
    controller.abort();
    const outcome = await runCommandTool.run(
      { command: 'touch ran' },
      makeContext(cwd, { signal: controller.signal }),
    );
    expect(outcome.ok).toBe(false);
    expect(fs.existsSync(path.join(cwd, 'ran'))).toBe(false);
  });

  it('does not wait for background children that keep the output open', async () => {
    const args = { command: 'sleep 5 & echo done' };
    const outcome = await runCommandTool.run(args, makeContext(makeTempDir(), { commandTimeoutMs: 4000 }));
    expect(outcome.details).toMatchObject({ exitCode: 0, timedOut: false });
    expect(outcome.output).toContain('done');
  });

  it('keeps head and tail of huge output', async () => {
    const args = { command: 'echo FIRST; yes filler | head -c 300000; echo; echo LAST' };
    const outcome = await runCommandTool.run(args, makeContext(makeTempDir()));
    expect(outcome.output.startsWith('FIRST')).toBe(true);
    expect(outcome.output).toMatch(/\[… [\d,]+ characters cut …\]/);
    expect(outcome.output).toContain('LAST\n\n[exit code 0]');
    expect(outcome.output.length).toBeLessThan(110_000);
  });

  it('reports a working directory that does not exist', async () => {
    const args = { command: 'true' };
    const outcome = await runCommandTool.run(args, makeContext('/nonexistent-ochat-dir'));
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toBe(
      '(no output)\n[could not start: the working directory /nonexistent-ochat-dir does not exist]',
    );
    expect(runCommandTool.summaryLine(args, outcome)).toBe(
      '❌ true (the working directory /nonexistent-ochat-dir does not exist)',
    );
  });
});
