import { describe, expect, it } from 'vitest';
import { outputForModel, ShellRunner } from '../../../src/chat/input/shell-runner.js';
import { AbortSlot, LATE_CANCEL_MS, SEEN_WORK_MS } from '../../../src/chat/state/abort-slot.js';
import { ScreenLog } from '../../../src/chat/state/screen-log.js';
import { createStore } from '../../../src/chat/state/store.js';
import { initialViewState } from '../../../src/chat/state/view-state.js';
import { DEFAULT_CONFIG } from '../../../src/config/defaults.js';
import { Conversation } from '../../../src/conversation/conversation.js';
import { makeTempDir } from '../../tools/temp-sandbox.js';

/** The abort slot's clock, moved by hand. */
const clock = { now: 0 };

function setup(maxOutputChars = 20_000) {
  const cwd = makeTempDir();
  const store = createStore(initialViewState('m'));
  const screen = new ScreenLog(store);
  const conversation = new Conversation(() => new Date('2026-01-01T00:00:00Z'));
  // The loop is free at once: the late-cancel window starts when the run ends.
  const abort = new AbortSlot(
    () => clock.now,
    (then) => {
      then();
      return () => {};
    },
  );
  let appended = 0;
  const runner = new ShellRunner({
    conversation,
    screen,
    abort,
    cwd,
    config: { ...DEFAULT_CONFIG.tools, max_output_chars: maxOutputChars },
    onAppended: () => appended++,
    liveIntervalMs: 10,
  });
  return { cwd, store, conversation, abort, runner, appended: () => appended };
}

describe('ShellRunner', () => {
  it('appends the run as a user message of its own turn and shows it as a shell item', async () => {
    const { cwd, store, conversation, runner, appended } = setup();
    await runner.run('echo hi; exit 3');
    const [message] = conversation.transcript;
    expect(message).toMatchObject({
      role: 'user',
      turn: 1,
      content: `I ran a shell command in ${cwd} (exit code 3); this is what it printed:\n\`\`\`console\n$ echo hi; exit 3\nhi\n\`\`\``,
      shell: { command: 'echo hi; exit 3', cwd, end: 'exit 3', ok: false },
    });
    expect(store.get().items.at(-1)).toMatchObject({
      kind: 'shell',
      command: 'echo hi; exit 3',
      output: 'hi',
      end: 'exit 3',
      ok: false,
    });
    expect(store.get()).toMatchObject({ busy: undefined, live: undefined });
    expect(appended()).toBe(1);
  });

  it('shows the output live while the command runs, then clears the live area', async () => {
    const { store, runner } = setup();
    const seen: string[] = [];
    store.subscribe(() => {
      const live = store.get().live?.text;
      if (live && seen.at(-1) !== live) seen.push(live);
    });
    await runner.run('echo first; sleep 0.3; echo second');
    // Shown before the command ended: "second" came 0.3 s later.
    expect(seen[0]).toBe('first\n');
    expect(store.get().live).toBeUndefined();
  });

  it('is cancelled through the abort slot (Ctrl+C), and the run is kept, marked', async () => {
    const { store, conversation, abort, runner } = setup();
    store.subscribe(() => {
      if (!store.get().live?.text.includes('started')) return;
      clock.now += SEEN_WORK_MS; // the command ran a while before Ctrl+C
      abort.cancel();
    });
    await runner.run('echo started; sleep 30');
    expect(conversation.transcript[0].shell).toMatchObject({ end: 'cancelled', ok: false });
    expect(conversation.transcript[0].content).toContain(
      '(cancelled by the user; the process group was killed)',
    );
    // Nothing runs: a Ctrl+C a moment later still counts as cancelling the run, one later is idle.
    expect(abort.cancel()).toBe(true);
    clock.now += LATE_CANCEL_MS;
    expect(abort.cancel()).toBe(false);
  });
});

describe('outputForModel', () => {
  it('removes control sequences and trailing blank lines', () => {
    expect(outputForModel('\x1b[31mred\x1b[0m \x1b]0;title\x07ok\r\n\n\n', 100)).toBe('red ok');
  });

  it('caps long output, head and tail kept', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join('\n');
    const output = outputForModel(lines, 500);
    expect(output.length).toBeLessThanOrEqual(500);
    expect(output.startsWith('line 1\n')).toBe(true);
    expect(output.endsWith('line 2000')).toBe(true);
    expect(output).toMatch(/\[… [\d,]+ characters cut …\]/);
  });

  it('replaces binary output with a note', () => {
    expect(outputForModel('ELF\0\0\x01garbage', 100)).toBe('[binary output, 13 characters, not shown]');
  });
});
