import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type PresenterOutput, ReplyPresenter } from '../../../src/chat/turn/reply-presenter.js';

function setup(intervalMs = 40) {
  const outputs: PresenterOutput[] = [];
  let next = 1;
  const presenter = new ReplyPresenter(
    (output) => outputs.push(output),
    () => `id${next++}`,
    intervalMs,
  );
  const committed = () => outputs.flatMap((o) => o.commit);
  return { presenter, outputs, committed };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ReplyPresenter', () => {
  it('batches chunks into one update per interval', () => {
    const { presenter, outputs } = setup(40);
    presenter.push({ content: 'Hel' });
    presenter.push({ content: 'lo, ' });
    presenter.push({ content: 'world' });
    expect(outputs).toHaveLength(0);
    vi.advanceTimersByTime(39);
    expect(outputs).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(outputs).toEqual([{ commit: [], live: { text: 'Hello, world', thinking: '' } }]);
    vi.advanceTimersByTime(200);
    expect(outputs).toHaveLength(1);
  });

  it('commits finished markdown blocks once and keeps only the tail live', () => {
    const { presenter, outputs, committed } = setup();
    presenter.push({ content: 'First paragraph.\n\nSecond ' });
    vi.advanceTimersByTime(40);
    expect(committed()).toEqual([{ kind: 'assistant', id: 'id1', markdown: 'First paragraph.' }]);
    expect(outputs.at(-1)?.live).toEqual({ text: 'Second ', thinking: '' });
    presenter.push({ content: 'paragraph.' });
    vi.advanceTimersByTime(40);
    // Nothing is committed twice.
    expect(committed()).toHaveLength(1);
    expect(outputs.at(-1)?.live?.text).toBe('Second paragraph.');
    presenter.finish();
    expect(committed().map((i) => (i.kind === 'assistant' ? i.markdown : ''))).toEqual([
      'First paragraph.',
      'Second paragraph.',
    ]);
    expect(outputs.at(-1)?.live).toBeUndefined();
  });

  it('does not commit at a blank line inside a code fence', () => {
    const { presenter, outputs, committed } = setup();
    presenter.push({ content: '```ts\nconst a = 1;\n\nconst b = 2;\n' });
    vi.advanceTimersByTime(40);
    expect(committed()).toEqual([]);
    expect(outputs.at(-1)?.live?.text).toContain('const b = 2;');
    presenter.push({ content: '```\n\nAfter.' });
    vi.advanceTimersByTime(40);
    expect(committed()).toHaveLength(1);
    const block = committed()[0];
    expect(block.kind === 'assistant' && block.markdown).toBe('```ts\nconst a = 1;\n\nconst b = 2;\n```');
  });

  it('commits the thinking once, collapsed, as soon as the answer starts', () => {
    const { presenter, outputs, committed } = setup();
    presenter.push({ thinking: 'The user greets. ' });
    presenter.push({ thinking: 'Answer briefly.' });
    vi.advanceTimersByTime(40);
    expect(committed()).toEqual([]);
    expect(outputs.at(-1)?.live).toEqual({ text: '', thinking: 'The user greets. Answer briefly.' });
    presenter.push({ content: 'Hi!' });
    vi.advanceTimersByTime(40);
    expect(committed()).toEqual([{ kind: 'thinking', id: 'id1', text: 'The user greets. Answer briefly.' }]);
    expect(outputs.at(-1)?.live).toEqual({ text: 'Hi!', thinking: '' });
    presenter.finish();
    expect(committed().map((i) => i.kind)).toEqual(['thinking', 'assistant']);
  });

  it('commits thinking at the end when no answer followed', () => {
    const { presenter, committed } = setup();
    presenter.push({ thinking: 'Hmm.' });
    presenter.finish();
    expect(committed()).toEqual([{ kind: 'thinking', id: 'id1', text: 'Hmm.' }]);
  });

  it('strips terminal control sequences from committed and live text', () => {
    const { presenter, outputs, committed } = setup();
    presenter.push({ content: 'Safe\x1b]0;pwned\x07 title.\n\nLive \x1b[2J' });
    presenter.push({ thinking: 'think \x1b[31mred' });
    vi.advanceTimersByTime(40);
    const all = JSON.stringify(outputs);
    expect(all).not.toContain('\x1b');
    expect(committed().some((i) => i.kind === 'assistant' && i.markdown === 'Safe title.')).toBe(true);
    expect(outputs.at(-1)?.live?.text).toBe('Live ');
    presenter.finish();
    expect(JSON.stringify(committed())).not.toContain('\x1b');
  });

  it('marks an interrupted reply, even when nothing arrived', () => {
    const partial = setup();
    partial.presenter.push({ content: 'Half an ans' });
    partial.presenter.finish({ interrupted: true });
    expect(partial.committed()).toEqual([
      { kind: 'assistant', id: 'id1', markdown: 'Half an ans', interrupted: true },
    ]);
    const empty = setup();
    empty.presenter.finish({ interrupted: true });
    expect(empty.committed()).toEqual([{ kind: 'assistant', id: 'id1', markdown: '', interrupted: true }]);
  });

  it('finish commits nothing for an empty reply and cancels the pending update', () => {
    const { presenter, outputs } = setup();
    presenter.push({ content: '  \n' });
    presenter.finish();
    expect(outputs).toEqual([{ commit: [], live: undefined }]);
    vi.advanceTimersByTime(100);
    expect(outputs).toHaveLength(1);
  });
});
