import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LineEditorOptions, useLineEditor } from '../../../src/ui/input/use-line-editor.js';

/** Lets Ink subscribe its input handlers / flush a pending lone ESC, and React re-render. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

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
  return { ...app, ...callbacks };
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('useLineEditor', () => {
  it('typing "hi\\r" in one chunk submits "hi" and clears the prompt', async () => {
    const app = setup();
    unmount = app.unmount;
    await settle();
    app.stdin.write('hi\r');
    await settle();
    expect(app.onSubmit).toHaveBeenCalledWith('hi');
    expect(app.lastFrame()).toBe('[|]');
  });

  it('a paste of "a\\rb" inside paste markers is text, submitted only by a later Enter', async () => {
    const app = setup();
    unmount = app.unmount;
    await settle();
    app.stdin.write('\x1b[200~a\rb\x1b[201~');
    await settle();
    expect(app.onSubmit).not.toHaveBeenCalled();
    expect(app.lastFrame()).toBe('[a\nb|]');
    app.stdin.write('\r');
    await settle();
    expect(app.onSubmit).toHaveBeenCalledWith('a\nb');
  });

  it('DEL deletes backwards; arrows move; a trailing backslash makes Enter a newline', async () => {
    const app = setup();
    unmount = app.unmount;
    await settle();
    app.stdin.write('abc');
    app.stdin.write('\x7f');
    await settle();
    expect(app.lastFrame()).toBe('[ab|]');
    app.stdin.write('\x1b[D');
    await settle();
    expect(app.lastFrame()).toBe('[a|b]');
    app.stdin.write('\x1b[F');
    app.stdin.write('\\');
    app.stdin.write('\r');
    await settle();
    expect(app.onSubmit).not.toHaveBeenCalled();
    expect(app.lastFrame()).toBe('[ab\n|]');
  });

  it('recalls history with the up arrow', async () => {
    const app = setup({ initialHistory: ['earlier question'] });
    unmount = app.unmount;
    await settle();
    app.stdin.write('\x1b[A');
    await settle();
    expect(app.lastFrame()).toBe('[earlier question|]');
  });

  it('reports Ctrl+C and Esc as intents without editing', async () => {
    const app = setup();
    unmount = app.unmount;
    await settle();
    app.stdin.write('x');
    app.stdin.write('\x03');
    await settle();
    expect(app.onInterrupt).toHaveBeenCalledTimes(1);
    app.stdin.write('\x1b');
    await settle();
    expect(app.onEscape).toHaveBeenCalledTimes(1);
    expect(app.lastFrame()).toBe('[x|]');
  });

  it('Delete removes the character after the cursor, Backspace the one before', async () => {
    const app = setup();
    unmount = app.unmount;
    await settle();
    app.stdin.write('abcd');
    app.stdin.write('\x1b[D');
    app.stdin.write('\x1b[D');
    await settle();
    app.stdin.write('\x1b[3~');
    await settle();
    expect(app.lastFrame()).toBe('[ab|d]');
    app.stdin.write('\x7f');
    await settle();
    expect(app.lastFrame()).toBe('[a|d]');
  });

  it('Esc with the completion list open closes the list only', async () => {
    const app = setup({ commands: [{ name: 'help', summary: 'List commands', usage: '/help' }] });
    unmount = app.unmount;
    await settle();
    app.stdin.write('/');
    await settle();
    app.stdin.write('\x1b');
    await settle();
    expect(app.onEscape).not.toHaveBeenCalled();
    app.stdin.write('\x1b');
    await settle();
    expect(app.onEscape).toHaveBeenCalledTimes(1);
  });

  it('Ctrl+D exits on an empty prompt and deletes forward otherwise', async () => {
    const app = setup();
    unmount = app.unmount;
    await settle();
    app.stdin.write('ab');
    app.stdin.write('\x01'); // Ctrl+A: home
    app.stdin.write('\x04');
    await settle();
    expect(app.onExit).not.toHaveBeenCalled();
    expect(app.lastFrame()).toBe('[|b]');
    app.stdin.write('\x15'); // Ctrl+U does nothing at line start; Ctrl+K clears the rest
    app.stdin.write('\x0b');
    app.stdin.write('\x04');
    await settle();
    expect(app.onExit).toHaveBeenCalledTimes(1);
  });

  it('reads no keys while inactive', async () => {
    const app = setup({ isActive: false });
    unmount = app.unmount;
    await settle();
    app.stdin.write('typed\r');
    await settle();
    expect(app.onSubmit).not.toHaveBeenCalled();
    expect(app.lastFrame()).toBe('[|]');
  });
});
