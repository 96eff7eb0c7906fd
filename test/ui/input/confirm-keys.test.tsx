import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { useConfirmInput } from '../../../src/ui/input/confirm-keys.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

function Dialog({ onAnswer, isActive }: { onAnswer: (accepted: boolean) => void; isActive?: boolean }) {
  useConfirmInput(onAnswer, isActive);
  return <Text>?</Text>;
}

describe('useConfirmInput', () => {
  it('y and Enter accept, n and Esc and Ctrl+C decline, other keys are ignored', async () => {
    const onAnswer = vi.fn();
    const { stdin, unmount } = render(<Dialog onAnswer={onAnswer} />);
    await settle();
    for (const key of ['y', 'Y', '\r', 'x', 'n', '\x03']) stdin.write(key);
    stdin.write('\x1b');
    await settle();
    expect(onAnswer.mock.calls.map(([accepted]) => accepted)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    unmount();
  });

  it('reads nothing while inactive', async () => {
    const onAnswer = vi.fn();
    const { stdin, unmount } = render(<Dialog onAnswer={onAnswer} isActive={false} />);
    await settle();
    stdin.write('y');
    await settle();
    expect(onAnswer).not.toHaveBeenCalled();
    unmount();
  });
});
