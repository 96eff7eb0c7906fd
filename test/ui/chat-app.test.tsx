import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DisplayItem } from '../../src/chat/state/display-items.js';
import { createStore } from '../../src/chat/state/store.js';
import { type ChatViewState, type Dialog, initialViewState } from '../../src/chat/state/view-state.js';
import { BUILTIN_COMMANDS } from '../../src/commands/builtin-commands.js';
import { DECLINED_OUTPUT } from '../../src/tools/execute.js';
import { ChatApp, type ChatAppModel } from '../../src/ui/chat-app.js';
import { readingKeys, shows, until } from '../support/ink-app.js';
import { startToolHarness } from '../support/tools-harness.js';

const CTRL_C = '\x03';
const CTRL_D = '\x04';
const CTRL_T = '\x14';

function initialState(overrides: Partial<ChatViewState> = {}): ChatViewState {
  return { ...initialViewState('qwen3'), numCtx: 8192, used: 1229, ...overrides };
}

/** A ChatAppModel whose intents are spies; `interrupts` says whether there was work to cancel. */
function fakeModel(state: Partial<ChatViewState> = {}, interrupts = false) {
  const store = createStore(initialState(state));
  return {
    store,
    submit: vi.fn<(text: string) => void>(),
    interrupt: vi.fn(() => interrupts),
    answerDialog: vi.fn<(key: string) => void>(),
    toggleThinking: vi.fn(),
    exit: vi.fn(),
  } satisfies ChatAppModel;
}

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

/** The clock the app times dialog answers by; tests move it forward with `clock.pause()`. */
const clock = {
  time: 1_000_000,
  now: () => clock.time,
  /** The keyboard rests long enough for the next key to answer a dialog. */
  pause: () => {
    clock.time += 10_000;
  },
};

async function mount(model: ChatAppModel, history: string[] = []) {
  const app = render(<ChatApp model={model} commands={BUILTIN_COMMANDS} history={history} now={clock.now} />);
  unmount = app.unmount;
  await readingKeys(app);
  return app;
}

const ITEMS: DisplayItem[] = [
  { kind: 'banner', id: 'b', model: 'qwen3', host: 'http://127.0.0.1:11434', numCtx: 8192 },
  { kind: 'user', id: 'u1', text: 'What is 2+2?' },
  { kind: 'assistant', id: 'a1', markdown: 'It is 4.' },
  { kind: 'notice', id: 'n1', level: 'success', text: 'Compacted 3 messages' },
];

describe('ChatApp rendering', () => {
  it('renders the finished items, the prompt and the status line', async () => {
    const app = await mount(fakeModel({ items: ITEMS, lastStats: '42 tokens · 38.5 tok/s' }));
    const frame = app.lastFrame() ?? '';
    expect(frame).toContain('What is 2+2?');
    expect(frame).toContain('It is 4.');
    expect(frame).toContain('Compacted 3 messages');
    expect(frame).toContain('qwen3 · 1.2k/8k (15%)');
    expect(frame).toContain('42 tokens · 38.5 tok/s');
  });

  it('follows the store: new items, the live reply, busy state and queued messages', async () => {
    const model = fakeModel({ items: ITEMS.slice(0, 2) });
    const app = await mount(model);
    model.store.update({
      busy: 'waiting for qwen3…',
      queued: [
        { id: 1, text: 'First typed ahead' },
        { id: 2, text: undefined },
        { id: 3, text: 'Second typed ahead\nwith a second line' },
      ],
      live: { text: '', thinking: '' },
    });
    await shows(app, 'Second typed ahead');
    // The queued messages, in order, under the live reply (a retry has no text to show).
    const queuedFrame = app.lastFrame() ?? '';
    expect(queuedFrame).toContain('waiting for qwen3…');
    expect(queuedFrame).toMatch(/› First typed ahead\n› Second typed ahead …\n {2}queued · esc/);
    expect(app.lastFrame()).toContain('ctrl+c to cancel');
    model.store.update({
      items: ITEMS,
      live: { text: 'Streaming tail', thinking: '' },
      busy: 'streaming…',
      queued: [],
      used: 4096,
    });
    await shows(app, 'Streaming tail');
    const frame = app.lastFrame() ?? '';
    expect(frame).toContain('It is 4.');
    expect(frame).toContain('Streaming tail');
    // While text streams, the text shows progress; the status says how to cancel.
    expect(frame).toContain('streaming · ctrl+c to cancel');
    expect(frame).toContain('4k/8k (50%)');
    model.store.update({ live: undefined, busy: undefined, lastStats: '12 tokens · 80.0 tok/s' });
    await shows(app, '12 tokens · 80.0 tok/s');
    expect(app.lastFrame()).not.toContain('ctrl+c to cancel');
  });

  it('shows "no model" and no meter before the model is known', async () => {
    const app = await mount(fakeModel({ model: undefined, numCtx: undefined, used: undefined }));
    const frame = app.lastFrame() ?? '';
    expect(frame).toContain('no model');
    expect(frame).not.toMatch(/\(\d+%\)/);
  });
});

describe('ChatApp keys', () => {
  it('Enter submits the typed text and clears the prompt', async () => {
    const model = fakeModel();
    const app = await mount(model);
    app.stdin.write('hello there');
    await shows(app, 'hello there');
    app.stdin.write('\r');
    await until(app, 'the prompt cleared', () => !app.lastFrame()?.includes('hello there'));
    expect(model.submit).toHaveBeenCalledWith('hello there');
  });

  it('Up recalls the history it was given', async () => {
    const model = fakeModel();
    const app = await mount(model, ['an earlier question']);
    app.stdin.write('\x1b[A');
    await shows(app, 'an earlier question');
    app.stdin.write('\r');
    await until(app, 'the submission', () => model.submit.mock.calls.length > 0);
    expect(model.submit).toHaveBeenCalledWith('an earlier question');
  });

  it('Ctrl+C calls interrupt, and nothing else when it cancelled something', async () => {
    const model = fakeModel({ busy: 'streaming…' }, true);
    const app = await mount(model);
    app.stdin.write(CTRL_C);
    await until(app, 'the interrupt', () => model.interrupt.mock.calls.length === 1);
    app.stdin.write(CTRL_C);
    await until(app, 'the second interrupt', () => model.interrupt.mock.calls.length === 2);
    // Keys typed after them are drawn after anything the presses drew.
    app.stdin.write('probe');
    await shows(app, 'probe');
    expect(model.exit).not.toHaveBeenCalled();
    expect(app.lastFrame()).not.toContain('Press Ctrl+C again');
  });

  it('Ctrl+C twice on an empty prompt with nothing to cancel exits', async () => {
    const model = fakeModel();
    const app = await mount(model);
    app.stdin.write(CTRL_C);
    await shows(app, 'Press Ctrl+C again to quit');
    expect(model.interrupt).toHaveBeenCalledTimes(1);
    expect(model.exit).not.toHaveBeenCalled();
    app.stdin.write(CTRL_C);
    await until(app, 'the exit', () => model.exit.mock.calls.length > 0);
    expect(model.exit).toHaveBeenCalledTimes(1);
  });

  it('Ctrl+C on a non-empty prompt clears it instead of arming the exit', async () => {
    const model = fakeModel();
    const app = await mount(model);
    app.stdin.write('draft text');
    await shows(app, 'draft text');
    app.stdin.write(CTRL_C);
    await until(app, 'the prompt cleared', () => !app.lastFrame()?.includes('draft text'));
    expect(app.lastFrame()).not.toContain('Press Ctrl+C again');
    app.stdin.write(CTRL_C);
    // The first press only cleared the text: this is the first press on an empty prompt.
    await shows(app, 'Press Ctrl+C again to quit');
    expect(model.exit).not.toHaveBeenCalled();
  });

  it('Ctrl+D on an empty prompt exits', async () => {
    const model = fakeModel();
    const app = await mount(model);
    app.stdin.write(CTRL_D);
    await until(app, 'the exit', () => model.exit.mock.calls.length > 0);
    expect(model.exit).toHaveBeenCalledTimes(1);
  });

  it('Ctrl+T toggles the thinking display', async () => {
    const model = fakeModel();
    const app = await mount(model);
    app.stdin.write(CTRL_T);
    await until(app, 'the toggle', () => model.toggleThinking.mock.calls.length === 1);
    app.stdin.write(CTRL_T);
    await until(app, 'the second toggle', () => model.toggleThinking.mock.calls.length === 2);
    // Ctrl+T is not typed into the prompt: Enter finds it empty (and a key after it is drawn).
    app.stdin.write('\r');
    app.stdin.write('probe');
    await shows(app, 'probe');
    expect(model.submit).not.toHaveBeenCalled();
  });
});

describe('ChatApp dialogs', () => {
  const confirmTool: Dialog = {
    kind: 'confirm-tool',
    question: 'Allow run_command npm test?',
    choices: '[y]es / [n]o / [a]lways for this session / [i]nstruct',
  };
  /** The notice shown once keys typed with a dialog open went to the prompt. */
  const TYPED_AHEAD = 'Typing goes to the prompt.';

  it('shows the question and routes y, n, a and i, each pressed alone after a pause, to answerDialog', async () => {
    const model = fakeModel({ dialog: confirmTool });
    const app = await mount(model);
    expect(app.lastFrame()).toContain('Allow run_command npm test?');
    expect(app.lastFrame()).toContain('[a]lways for this session');
    for (const [index, key] of ['y', 'N', 'a', 'i'].entries()) {
      clock.pause();
      app.stdin.write(key);
      await until(app, `answer ${index + 1}`, () => model.answerDialog.mock.calls.length === index + 1);
    }
    expect(model.answerDialog.mock.calls.map((c) => c[0])).toEqual(['y', 'n', 'a', 'i']);
  });

  it('keeps keys typed while it is open in the prompt; a y among them does not answer; Enter sends nothing', async () => {
    const model = fakeModel({ dialog: confirmTool });
    const app = await mount(model);
    clock.pause();
    app.stdin.write('okay'); // a burst: a y inside it is text
    await shows(app, 'okay');
    // Typed one key at a time, without a pause: still typing. (Ink handles a write's keys as it
    // is written: each key meets its own time.)
    for (const key of [' ', 'w', 'h', 'y']) {
      clock.time += 120;
      app.stdin.write(key);
    }
    await shows(app, 'okay why');
    clock.time += 120;
    app.stdin.write('\r');
    await shows(app, 'Typing goes to the prompt. To answer, pause, then press y, n, a, i on its own.');
    expect(model.answerDialog).not.toHaveBeenCalled();
    expect(model.submit).not.toHaveBeenCalled();
    expect(app.lastFrame()).toContain('okay why');
    // A pasted lone y is text too (on a line of its own: Enter held the line typed before).
    clock.pause();
    app.stdin.write('\x1b[200~y\x1b[201~');
    await until(app, 'the pasted y', () => /okay why\n.*\by\s*$/m.test(app.lastFrame() ?? ''));
    expect(model.answerDialog).not.toHaveBeenCalled();
    // After a pause, a key pressed alone answers; the typed text stays for after the dialog.
    clock.pause();
    app.stdin.write('n');
    await until(app, 'the answer', () => model.answerDialog.mock.calls.length > 0);
    expect(model.answerDialog).toHaveBeenCalledWith('n');
    model.store.update({ dialog: undefined });
    await until(app, 'the dialog gone', () => !app.lastFrame()?.includes(confirmTool.question));
    app.stdin.write('\r');
    await until(app, 'the submission', () => model.submit.mock.calls.length > 0);
    expect(model.submit).toHaveBeenCalledWith('okay why\ny');
  });

  it('lines typed ahead with Enter while a question is open stay apart, and are sent together after it', async () => {
    const model = fakeModel({ dialog: confirmTool });
    const app = await mount(model);
    app.stdin.write('first line\r');
    app.stdin.write('second line\r');
    await shows(app, 'second line');
    expect(model.submit).not.toHaveBeenCalled();
    clock.pause();
    app.stdin.write('n');
    await until(app, 'the answer', () => model.answerDialog.mock.calls.length > 0);
    model.store.update({ dialog: undefined });
    await until(app, 'the dialog gone', () => !app.lastFrame()?.includes(confirmTool.question));
    app.stdin.write('\r');
    await until(app, 'the submission', () => model.submit.mock.calls.length > 0);
    expect(model.submit).toHaveBeenCalledWith('first line\nsecond line');
  });

  it('a key pressed right after the dialog appears is typing, not an answer', async () => {
    const model = fakeModel();
    const app = await mount(model);
    model.store.update({ dialog: confirmTool });
    await shows(app, confirmTool.question);
    app.stdin.write('y');
    await shows(app, TYPED_AHEAD);
    expect(model.answerDialog).not.toHaveBeenCalled();
    clock.pause();
    app.stdin.write('y');
    await until(app, 'the answer', () => model.answerDialog.mock.calls.length > 0);
    expect(model.answerDialog).toHaveBeenCalledWith('y');
  });

  it('a dialog without "always" does not take a', async () => {
    const model = fakeModel({ dialog: { ...confirmTool, keys: ['y', 'n', 'i'] } });
    const app = await mount(model);
    clock.pause();
    app.stdin.write('a');
    await shows(app, TYPED_AHEAD);
    expect(model.answerDialog).not.toHaveBeenCalled();
  });

  it('Ctrl+C answers no, without interrupting or arming the exit', async () => {
    const model = fakeModel({ dialog: confirmTool });
    const app = await mount(model);
    app.stdin.write(CTRL_C);
    await until(app, 'the answer', () => model.answerDialog.mock.calls.length > 0);
    expect(model.answerDialog).toHaveBeenCalledWith('n');
    expect(model.interrupt).not.toHaveBeenCalled();
    expect(model.exit).not.toHaveBeenCalled();
  });

  it('a retry dialog takes only y and n', async () => {
    const model = fakeModel({
      dialog: { kind: 'retry-compaction', question: 'Retry compaction?', choices: 'y/n' },
    });
    const app = await mount(model);
    expect(app.lastFrame()).toContain('Retry compaction? (y/n)');
    clock.pause();
    app.stdin.write('a');
    clock.pause();
    app.stdin.write('i');
    await shows(app, TYPED_AHEAD);
    expect(model.answerDialog).not.toHaveBeenCalled();
    clock.pause();
    app.stdin.write('y');
    await until(app, 'the answer', () => model.answerDialog.mock.calls.length > 0);
    expect(model.answerDialog).toHaveBeenCalledWith('y');
  });

  it('the editor works again once the dialog closes', async () => {
    const model = fakeModel({ dialog: confirmTool });
    const app = await mount(model);
    clock.pause();
    app.stdin.write('y');
    await until(app, 'the answer', () => model.answerDialog.mock.calls.length > 0);
    model.store.update({ dialog: undefined });
    await until(app, 'the dialog gone', () => !app.lastFrame()?.includes(confirmTool.question));
    app.stdin.write('next message\r');
    await until(app, 'the submission', () => model.submit.mock.calls.length > 0);
    expect(model.submit).toHaveBeenCalledWith('next message');
  });

  it('an instruction dialog lets the user type the instruction; Esc declines', async () => {
    const model = fakeModel({
      dialog: { kind: 'tool-instruction', question: 'Type an instruction', choices: 'Esc/Ctrl+C: decline' },
    });
    const app = await mount(model);
    app.stdin.write('use yarn instead\r');
    await until(app, 'the submission', () => model.submit.mock.calls.length > 0);
    expect(model.submit).toHaveBeenCalledWith('use yarn instead');
    // A lone ESC is told from the start of a sequence once no more bytes follow it.
    app.stdin.write('\x1b');
    await until(app, 'the answer', () => model.answerDialog.mock.calls.length > 0);
    expect(model.answerDialog).toHaveBeenCalledWith('');
  });

  it('text typed ahead of the instruction waits aside, and is back in the prompt afterwards', async () => {
    const model = fakeModel({ dialog: confirmTool });
    const app = await mount(model);
    const draft = 'draft of my next message';
    clock.pause();
    app.stdin.write(draft);
    await shows(app, draft);
    model.store.update({
      dialog: { kind: 'tool-instruction', question: 'Type an instruction', choices: 'Esc/Ctrl+C: decline' },
    });
    await until(app, 'the draft set aside', () => !app.lastFrame()?.includes(draft));
    app.stdin.write('use yarn\r');
    await until(app, 'the instruction', () => model.submit.mock.calls.length === 1);
    expect(model.submit).toHaveBeenCalledWith('use yarn');
    model.store.update({ dialog: undefined });
    await shows(app, draft);
    app.stdin.write('\r');
    await until(app, 'the draft sent', () => model.submit.mock.calls.length === 2);
    expect(model.submit).toHaveBeenLastCalledWith(draft);
  });
});

describe('ChatApp exit', () => {
  it('unmounts when the store says it is exiting', async () => {
    const model = fakeModel({ items: ITEMS });
    const app = await mount(model);
    const frames = app.frames.length;
    model.store.update({ exiting: true });
    // Unmounted, Ink stops reading keys.
    await until(app, 'Ink to exit', () => app.stdin.listenerCount('readable') === 0);
    // After Ink exits, further store changes render nothing (a store change renders within a microtask).
    model.store.update({ busy: 'should not render' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(app.frames.slice(frames).join('')).not.toContain('should not render');
  });
});

describe('ChatApp on a real controller', () => {
  it('Ctrl+C in the instruction dialog declines the tool instead of sending an instruction', async () => {
    const h = await startToolHarness();
    try {
      h.emu.enqueue(
        { toolCalls: [{ name: 'run_command', arguments: { command: 'touch made.txt' } }] },
        { content: 'Understood.' },
      );
      const app = await mount(h.controller);
      app.stdin.write('make the file\r');
      await until(app, 'the tool question', () => h.controller.store.get().dialog?.kind === 'confirm-tool');
      expect(app.lastFrame()).toContain('Allow run_command touch made.txt?');
      clock.pause();
      app.stdin.write('i');
      await until(
        app,
        'the instruction prompt',
        () => h.controller.store.get().dialog?.kind === 'tool-instruction',
      );
      app.stdin.write(CTRL_C);
      await until(app, 'the dialog closed', () => h.controller.store.get().dialog === undefined);
      await h.controller.idle();
      const requests = h.chatRequests();
      expect(requests).toHaveLength(2);
      expect(h.toolMessages(requests[1]).map((m) => m.content)).toEqual([DECLINED_OUTPUT]);
      expect(h.items().at(-1)).toMatchObject({ kind: 'assistant', markdown: 'Understood.' });
    } finally {
      await h.close();
    }
  });
});
