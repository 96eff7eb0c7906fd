import { Box, Text } from 'ink';
import type { DialogOption } from '../../chat/state/view-state.js';
import { sanitizeTerminalText } from '../../text/sanitize.js';

/** Props of {@link PickList}. */
export interface PickListProps {
  /** The question, e.g. `Which model?`. */
  question: string;
  /** How to answer, shown dimmed after the question. */
  choices: string;
  options: readonly DialogOption[];
  /** Index of the highlighted entry. */
  selected: number;
  /** Most entries listed at once; the list scrolls to keep the selected one in view. */
  maxRows: number;
}

/** Rows a {@link PickList} takes: the question, its entries (at most `maxRows`) and a "more" line. */
export function pickListRows(count: number, maxRows: number): number {
  return 1 + Math.min(count, maxRows) + (count > maxRows ? 1 : 0);
}

/** A question answered by picking one entry of a list with ↑/↓ and Enter. */
export function PickList({ question, choices, options, selected, maxRows }: PickListProps) {
  const rows = Math.max(1, maxRows);
  const start = Math.min(Math.max(0, selected - rows + 1), Math.max(0, options.length - rows));
  const shown = options.slice(start, start + rows);
  return (
    <Box flexDirection="column">
      <Text>
        <Text color="yellow" bold>
          ?{' '}
        </Text>
        {question} <Text dimColor>({choices})</Text>
      </Text>
      {shown.map((option, index) => {
        const isSelected = start + index === selected;
        return (
          <Text key={option.value} wrap="truncate-end">
            <Text color="cyan">{isSelected ? '› ' : '  '}</Text>
            <Text inverse={isSelected}>{sanitizeTerminalText(option.label)}</Text>
            {option.detail && <Text dimColor>{`  ${sanitizeTerminalText(option.detail)}`}</Text>}
          </Text>
        );
      })}
      {options.length > shown.length && (
        <Text dimColor>{`  … ${options.length - shown.length} more (↑/↓ to scroll)`}</Text>
      )}
    </Box>
  );
}
