import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LineEditorOptions, useLineEditor } from '../../../src/ui/input/use-line-editor.js';
import { readingKeys, until } from '../../support/ink-app.js';

/** Shows the editor text with `|` at the cursor. */
function Harness(props: LineEditorOptions) {
  const { state } = useLineEditor(props);
  return <Text>{`[${state.text.slice(0, state.cursor)}|${state.text.slice(state.cursor)}]`}</Text>;
}

function setup(options: Partial<LineEditorOptions> = {}) {
  const callbacks = {
    onSubmit: vi.fn<(text: string) => void>(),
    onInterrupt: vi.fn(),
    onExit: vi.fn(),
    onEscape: vi.fn(),
  };
  const app = render(<Harness {...callbacks} {...options} />);
  /** Resolves once a frame drawn after `since` frames is `frame`. */
  const drawn = (frame: string, since: number) =>
    until(app, `the frame ${frame}`, () => app.frames.length > since && app.lastFrame() === frame);
  return { ...app, ...callbacks, drawn };
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('useLineEditor', () => {
  it('typing "hi\\r" in one chunk submits "hi" and clears the prompt', async () => {
    const app = setup();
    unmount = app.unmount;
    await readingKeys(app);
    const since = app.frames.length;
    app.stdin.write('hi\r');
    await until(app, 'the submission', () => app.onSubmit.mock.calls.length > 0);
    expect(app.onSubmit).toHaveBeenCalledWith('hi');
    await app.drawn('[|]', since);
  });

  it('a paste of "a\\rb" inside paste markers is text, submitted only by a later Enter', async () => {
    const app = setup();
    unmount = app.unmount;
    await readingKeys(app);
    app.stdin.write('\x1b[200~a\rb\x1b[201~');
    await app.drawn('[a\nb|]', 0);
    expect(app.onSubmit).not.toHaveBeenCalled();
    app.stdin.write('\r');
    await until(app, 'the submission', () => app.onSubmit.mock.calls.length > 0);
    expect(app.onSubmit).toHaveBeenCalledWith('a\nb');
  });

  it('DEL deletes backwards; arrows move; a trailing backslash makes Enter a newline', async () => {
    const app = setup();
    unmount = app.unmount;
    await readingKeys(app);
    app.stdin.write('abc');
    app.stdin.write('\x7f');
    await app.drawn('[ab|]', 0);
    app.stdin.write('\x1b[D');
    await app.drawn('[a|b]', 0);
    app.stdin.write('\x1b[F');
    app.stdin.write('\\');
    app.stdin.write('\r');
    await app.drawn('[ab\n|]', 0);
    expect(app.onSubmit).not.toHaveBeenCalled();
  });

  it('recalls history with the up arrow', async () => {
    const app = setup({ initialHistory: ['earlier question'] });
    unmount = app.unmount;
    await readingKeys(app);
    app.stdin.write('\x1b[A');
    await app.drawn('[earlier question|]', 0);
  });

  it('reports Ctrl+C and Esc as intents without editing', async () => {
    const app = setup();
    unmount = app.unmount;
    await readingKeys(app);
    app.stdin.write('x');
    app.stdin.write('\x03');
    await until(app, 'the interrupt', () => app.onInterrupt.mock.calls.length > 0);
    expect(app.onInterrupt).toHaveBeenCalledTimes(1);
    // A lone ESC is told from the start of a sequence once no more bytes follow it.
    app.stdin.write('\x1b');
    await until(app, 'the escape', () => app.onEscape.mock.calls.length > 0);
    expect(app.onEscape).toHaveBeenCalledTimes(1);
    await app.drawn('[x|]', 0);
  });

  it('Delete removes the character after the cursor, Backspace the one before', async () => {
    const app = setup();
    unmount = app.unmount;
    await readingKeys(app);
    app.stdin.write('abcd');
    app.stdin.write('\x1b[D');
    app.stdin.write('\x1b[D');
    await app.drawn('[ab|cd]', 0);
    app.stdin.write('\x1b[3~');
    await app.drawn('[ab|d]', 0);
    app.stdin.write('\x7f');
    await app.drawn('[a|d]', 0);
  });

  it('Esc with the completion list open closes the list only', async () => {
    const app = setup({ commands: [{ name: 'help', summary: 'List commands', usage: '/help' }] });
    unmount = app.unmount;
    await readingKeys(app);
    app.stdin.write('/');
    await app.drawn('[/|]', 0);
    const since = app.frames.length;
    app.stdin.write('\x1b');
    // Closing the list is a new state (no completion), drawn though the text is the same.
    await until(app, 'the list closed', () => app.frames.length > since);
    expect(app.onEscape).not.toHaveBeenCalled();
    app.stdin.write('\x1b');
    await until(app, 'the escape', () => app.onEscape.mock.calls.length > 0);
    expect(app.onEscape).toHaveBeenCalledTimes(1);
  });

  it('Ctrl+D exits on an empty prompt and deletes forward otherwise', async () => {
    const app = setup();
    unmount = app.unmount;
    await readingKeys(app);
    app.stdin.write('ab');
    app.stdin.write('\x01'); // Ctrl+A: home
    app.stdin.write('\x04');
    await app.drawn('[|b]', 0);
    expect(app.onExit).not.toHaveBeenCalled();
    app.stdin.write('\x15'); // Ctrl+U does nothing at line start; Ctrl+K clears the rest
    app.stdin.write('\x0b');
    app.stdin.write('\x04');
    await until(app, 'the exit', () => app.onExit.mock.calls.length > 0);
    expect(app.onExit).toHaveBeenCalledTimes(1);
  });

  it('reads no keys while inactive', async () => {
    const app = setup({ isActive: false });
    unmount = app.unmount;
    await app.drawn('[|]', 0);
    app.stdin.write('typed\r');
    // Nothing listens to stdin at all, so nothing can come of the keys later either.
    expect(app.stdin.listenerCount('readable')).toBe(0);
    expect(app.onSubmit).not.toHaveBeenCalled();
    expect(app.lastFrame()).toBe('[|]');
  });
});
