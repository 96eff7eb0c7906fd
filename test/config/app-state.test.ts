import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppState, type AppStateOptions, HISTORY_ENTRY_MAX_CHARS } from '../../src/config/app-state.js';
import { INPUT_HISTORY_LIMIT } from '../../src/config/defaults.js';
import { waitUntil } from '../support/wait-until.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-state-'));
  dirs.push(dir);
  return dir;
}

/** A state whose file is open, as the interactive app has it. */
async function openState(options: AppStateOptions): Promise<AppState> {
  const state = new AppState(options);
  await state.open();
  return state;
}

describe('AppState', () => {
  it('an append while another live process trims waits for its lock without blocking the event loop, in order', async () => {
    const cwd = tempDir();
    const state = await openState({ cwd });
    state.pushHistory('before');
    // The parent process is alive and not this one: its lock is held.
    const lock = join(cwd, 'history.jsonl.lock');
    writeFileSync(lock, `${process.ppid}\n`);
    // pushHistory returns at once (a wait for the lock in it would have written by now, the lock
    // being held past any wait): offered for recall at once, written only once the lock is gone.
    state.pushHistory('during one');
    state.pushHistory('during two');
    expect(state.inputHistory).toEqual(['before', 'during one', 'during two']);
    const history = () => readFileSync(join(cwd, 'history.jsonl'), 'utf8');
    // A few turns of the event loop while the lock is held: nothing may be written meanwhile.
    let ticks = 0;
    await new Promise<void>((resolve) => {
      const tick = () => (++ticks === 5 ? resolve() : setTimeout(tick, 5));
      tick();
    });
    expect(history()).toBe('"before"\n');
    rmSync(lock);
    await waitUntil('the waiting lines written', () => history().includes('two'));
    expect(history()).toBe('"before"\n"during one"\n"during two"\n');
    expect(state.inputHistory).toEqual(['before', 'during one', 'during two']);
  });

  it('starts empty', async () => {
    const state = await openState({ cwd: tempDir() });
    expect(state.lastModel).toBeUndefined();
    expect(state.inputHistory).toEqual([]);
    expect(state.calibration('llama3.2')).toBeUndefined();
  });

  it('round-trips everything through state.json in the given directory', async () => {
    const cwd = tempDir();
    const state = await openState({ cwd });
    state.lastModel = 'qwen2.5:7b';
    state.pushHistory('hello');
    state.setCalibration('qwen2.5:7b', 3.6);
    state.setCalibration('llama3.2', 4.1);
    expect(state.path).toBe(join(cwd, 'state.json'));

    const again = await openState({ cwd });
    expect(again.lastModel).toBe('qwen2.5:7b');
    expect(again.inputHistory).toEqual(['hello']);
    expect(again.calibration('qwen2.5:7b')).toBe(3.6);
    expect(again.calibration('llama3.2')).toBe(4.1);
    // Dotted model names stay flat keys, not nested paths.
    expect(JSON.parse(readFileSync(join(cwd, 'state.json'), 'utf8')).calibration).toEqual({
      'qwen2.5:7b': 3.6,
      'llama3.2': 4.1,
    });
  });

  it('defaults to $XDG_DATA_HOME/ochat/state.json', async () => {
    const data = tempDir();
    const state = await openState({ env: { HOME: '/nonexistent', XDG_DATA_HOME: data } });
    state.lastModel = 'm';
    expect(state.path).toBe(join(data, 'ochat', 'state.json'));
    expect(JSON.parse(readFileSync(join(data, 'ochat', 'state.json'), 'utf8')).lastModel).toBe('m');
  });

  it('does not write a huge entry (a big paste) to the history file', async () => {
    const cwd = tempDir();
    const state = await openState({ cwd });
    state.pushHistory('x'.repeat(HISTORY_ENTRY_MAX_CHARS + 1));
    state.pushHistory('y'.repeat(HISTORY_ENTRY_MAX_CHARS));
    expect(state.inputHistory.map((entry) => entry.length)).toEqual([HISTORY_ENTRY_MAX_CHARS]);
  });

  it('writes the state and history files readable by their owner only', async () => {
    const cwd = tempDir();
    const state = await openState({ cwd });
    state.pushHistory('private');
    state.lastModel = 'm';
    expect(statSync(join(cwd, 'state.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(cwd, 'history.jsonl')).mode & 0o777).toBe(0o600);
  });

  it("before opening, reads see only this run's writes, which are written on opening", async () => {
    const cwd = tempDir();
    (await openState({ cwd })).setCalibration('m', 3.5);
    const state = new AppState({ cwd });
    expect(state.calibration('m')).toBeUndefined();
    state.lastModel = 'qwen3';
    expect(state.lastModel).toBe('qwen3');
    await state.open();
    expect(state.calibration('m')).toBe(3.5);
    expect(JSON.parse(readFileSync(join(cwd, 'state.json'), 'utf8')).lastModel).toBe('qwen3');
  });

  it('clears the last model', async () => {
    const state = await openState({ cwd: tempDir() });
    state.lastModel = 'a';
    state.lastModel = undefined;
    expect(state.lastModel).toBeUndefined();
  });

  it('keeps history in order, skipping blanks and repeats of the previous entry', async () => {
    const state = await openState({ cwd: tempDir() });
    for (const entry of ['a', 'a', '  ', 'b', 'a', 'a', 'multi\nline']) state.pushHistory(entry);
    expect(state.inputHistory).toEqual(['a', 'b', 'a', 'multi\nline']);
  });

  it(`caps history at the newest ${INPUT_HISTORY_LIMIT} entries`, async () => {
    const cwd = tempDir();
    const history = Array.from({ length: INPUT_HISTORY_LIMIT }, (_, i) => `line ${i}`);
    writeFileSync(join(cwd, 'state.json'), JSON.stringify({ inputHistory: history }));
    const state = await openState({ cwd });
    state.pushHistory('newest');
    expect(state.inputHistory).toHaveLength(INPUT_HISTORY_LIMIT);
    expect(state.inputHistory[0]).toBe('line 1');
    expect(state.inputHistory.at(-1)).toBe('newest');
  });

  it('updates a calibration and ignores nonsense ratios', async () => {
    const state = await openState({ cwd: tempDir() });
    state.setCalibration('m', 3);
    state.setCalibration('m', 3.5);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) state.setCalibration('m', bad);
    expect(state.calibration('m')).toBe(3.5);
    expect(state.calibration('toString')).toBeUndefined();
  });

  it('keeps a corrupt store aside (state.json.corrupt-<time>), says so once, and goes on', async () => {
    const cwd = tempDir();
    const corrupt = '{"lastModel": "x", trunc';
    writeFileSync(join(cwd, 'state.json'), corrupt);
    const errors: Error[] = [];
    const state = await openState({ cwd, onError: (error) => errors.push(error) });
    expect(state.lastModel).toBeUndefined();
    state.lastModel = 'after the crash';
    expect(JSON.parse(readFileSync(join(cwd, 'state.json'), 'utf8'))).toEqual({
      lastModel: 'after the crash',
    });
    const kept = readdirSync(cwd).filter((name) => name.startsWith('state.json.corrupt-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(cwd, kept[0]), 'utf8')).toBe(corrupt);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain(kept[0]);
  });

  it('appends the history, one line per entry: two processes sending at once lose nothing', async () => {
    const cwd = tempDir();
    const script = `
      const { AppState } = await import(${JSON.stringify(new URL('../../src/config/app-state.ts', import.meta.url).href)});
      const state = new AppState({ cwd: process.argv[1] });
      await state.open();
      for (let i = 0; i < 30; i++) state.pushHistory(process.argv[2] + i);`;
    const run = (tag: string) =>
      new Promise<void>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script, cwd, tag],
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    await Promise.all([run('a'), run('b')]);
    const history = (await openState({ cwd })).inputHistory;
    expect(history).toHaveLength(60);
    expect(new Set(history)).toEqual(new Set([...Array(30).keys()].flatMap((i) => [`a${i}`, `b${i}`])));
    expect(readFileSync(join(cwd, 'history.jsonl'), 'utf8').split('\n')).toHaveLength(61);
  });

  it('trims the history file while other processes append to it, losing none of their newest lines', async () => {
    const cwd = tempDir();
    const perProcess = 700; // three processes: the file passes the trim point twice
    const script = `
      const { AppState } = await import(${JSON.stringify(new URL('../../src/config/app-state.ts', import.meta.url).href)});
      const state = new AppState({ cwd: process.argv[1] });
      await state.open();
      for (let i = 0; i < ${perProcess}; i++) state.pushHistory(process.argv[2] + '-' + i);`;
    const run = (tag: string) =>
      new Promise<void>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script, cwd, tag],
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    await Promise.all([run('a'), run('b'), run('c')]);
    const lines = readFileSync(join(cwd, 'history.jsonl'), 'utf8').trimEnd().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as string);
    expect(entries.length).toBeLessThan(2 * INPUT_HISTORY_LIMIT);
    for (const tag of ['a', 'b', 'c']) {
      // A trim keeps the newest lines: what is left of each process is an unbroken run ending at its last line.
      const kept = entries.filter((e) => e.startsWith(`${tag}-`)).map((e) => Number(e.slice(2)));
      const first = perProcess - kept.length;
      expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => first + i));
    }
  }, 60_000);

  it('ignores values of the wrong shape in a hand-edited store', async () => {
    const cwd = tempDir();
    const stored = { lastModel: 42, inputHistory: ['ok', 7, null], calibration: { a: 'x', b: -2, c: 3 } };
    writeFileSync(join(cwd, 'state.json'), JSON.stringify(stored));
    const state = await openState({ cwd });
    expect(state.lastModel).toBeUndefined();
    expect(state.inputHistory).toEqual(['ok']);
    expect([state.calibration('a'), state.calibration('b'), state.calibration('c')]).toEqual([
      undefined,
      undefined,
      3,
    ]);
    writeFileSync(join(cwd, 'state.json'), '[1, 2]');
    expect((await openState({ cwd })).inputHistory).toEqual([]);
  });

  it('sets aside a folder where state.json should be, says so once, and keeps the state in a new file', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'state.json'));
    const errors: Error[] = [];
    const state = await openState({ cwd, onError: (error) => errors.push(error) });
    expect(state.path).toBe(join(cwd, 'state.json'));
    state.lastModel = 'm';
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^the state file was a folder, not a state file; it was set aside as .*state\.json\.bad-/,
      ),
    ]);
    expect((await openState({ cwd })).lastModel).toBe('m');
  });

  it('keeps state in memory and reports once when the store cannot be used', async () => {
    // Its folder cannot be made: a file stands where a folder of its path should be.
    const parent = tempDir();
    writeFileSync(join(parent, 'file'), '');
    const cwd = join(parent, 'file', 'ochat');
    const errors: Error[] = [];
    const state = await openState({ cwd, onError: (error) => errors.push(error) });
    expect(state.path).toBeUndefined();
    state.pushHistory('one');
    state.pushHistory('two');
    state.lastModel = 'm';
    expect(state.inputHistory).toEqual(['one', 'two']);
    expect(state.lastModel).toBe('m');
    expect(errors).toHaveLength(1);
  });

  it('falls back to memory when the store breaks after opening', async () => {
    const cwd = tempDir();
    const errors: Error[] = [];
    const state = await openState({ cwd, onError: (error) => errors.push(error) });
    state.pushHistory('saved');
    for (const file of ['state.json', 'history.jsonl']) {
      rmSync(join(cwd, file), { force: true });
      mkdirSync(join(cwd, file));
    }
    state.pushHistory('kept in memory');
    state.setCalibration('m', 4);
    expect(state.inputHistory).toEqual(['kept in memory']);
    expect(state.calibration('m')).toBe(4);
    expect(errors).toHaveLength(1);
  });
});
