import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../../src/chat/state/store.js';
import { initialViewState } from '../../src/chat/state/view-state.js';
import { BUILTIN_COMMANDS } from '../../src/commands/builtin-commands.js';
import { ChatApp } from '../../src/ui/chat-app.js';
import { drawFirstFrame, firstFrameLines } from '../../src/ui/first-frame.js';

/** A terminal that records what is written and the raw-mode switches. */
function fakeTerminal(columns = 100, isTTY = true) {
  const written: string[] = [];
  const rawModes: boolean[] = [];
  return {
    written,
    rawModes,
    stdout: { columns, write: (data: string) => written.push(data) },
    stdin: { isTTY, setRawMode: (raw: boolean) => rawModes.push(raw) },
  };
}

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

describe('the first frame', () => {
  it.each([['qwen3'], [undefined], ['evil\x1b]0;title\x07model']])(
    'is what the chat screen first renders (model %j)',
    async (model) => {
      const app = render(
        <ChatApp
          model={{
            store: createStore(initialViewState(model)),
            submit: vi.fn(),
            interrupt: () => false,
            answerDialog: vi.fn(),
            toggleThinking: vi.fn(),
            exit: vi.fn(),
          }}
          commands={BUILTIN_COMMANDS}
          history={[]}
        />,
      );
      unmount = app.unmount;
      expect(app.frames[0]).toBe(firstFrameLines(model).join('\n'));
      // Nothing from the model name reaches the terminal as a sequence (here: set the window title).
      expect(firstFrameLines(model).join('')).not.toMatch(/\x1b\]|\x07/);
    },
  );

  it('takes the keyboard without echo, and hands over by erasing each line it drew', () => {
    const terminal = fakeTerminal();
    const frame = drawFirstFrame(terminal, 'qwen3');
    expect(terminal.rawModes).toEqual([true]);
    const drawn = terminal.written.join('');
    expect(drawn.split('\n')).toHaveLength(firstFrameLines('qwen3').length + 1);
    terminal.written.length = 0;
    frame?.handOver();
    const erase = terminal.written.join('');
    // One line clear for the cursor's line and one per drawn line above it.
    expect(erase.match(/\x1b\[2K/g)).toHaveLength(firstFrameLines('qwen3').length + 1);
    expect(erase.match(/\x1b\[1A/g)).toHaveLength(firstFrameLines('qwen3').length);
  });

  it('is not drawn without a terminal, or on one too narrow for it', () => {
    for (const terminal of [fakeTerminal(100, false), fakeTerminal(40)]) {
      expect(drawFirstFrame(terminal, 'qwen3')).toBeUndefined();
      expect(terminal.written).toEqual([]);
      expect(terminal.rawModes).toEqual([]);
    }
  });
});
