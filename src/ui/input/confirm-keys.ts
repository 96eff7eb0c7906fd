/**
 * Keys of a y/n dialog (e.g. `Retry compaction? (y/n)`): y or Enter accepts, n or Esc declines.
 */
import { type Key, useInput } from 'ink';

/** The answer a key press gives to a y/n question, or undefined for any other key. */
export function confirmAnswer(input: string, key: Key): boolean | undefined {
  if (key.return || input.toLowerCase() === 'y') return true;
  if (key.escape || input.toLowerCase() === 'n') return false;
  return undefined;
}

/** Reads y/n answers while `isActive`; Ctrl+C declines too, so a dialog can always be left. */
export function useConfirmInput(onAnswer: (accepted: boolean) => void, isActive = true): void {
  useInput(
    (input, key) => {
      const answer = key.ctrl && input === 'c' ? false : confirmAnswer(input, key);
      if (answer !== undefined) onAnswer(answer);
    },
    { isActive },
  );
}
