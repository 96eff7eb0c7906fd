import { Box, Text } from 'ink';
import { expandTabs } from '../../text/terminal-rows.js';
import { cursorCell } from '../cursor-cell.js';
import { PROMPT_PLACEHOLDER } from '../first-frame.js';
import type { EditorState } from '../input/editor-state.js';
import { labelChips, type PastedTexts } from '../input/paste-chips.js';
import type { CompletionState } from '../input/slash-completion.js';
import { nextGrapheme } from '../input/text-position.js';

/** Props of {@link PromptInput}. */
export interface PromptInputProps {
  /** The editor state to show (from `useLineEditor`). */
  state: EditorState;
  /** Shown dimmed while the input is empty. */
  placeholder?: string;
  /** Whether the prompt has the keyboard; without it the cursor is hidden and the prompt dimmed. */
  isActive?: boolean;
  /** The most completion entries listed at once. */
  maxCompletions?: number;
}

/** The text of one line split around the cursor (the cursor cell shown inverse). */
function CursorLine({
  line,
  column,
  showCursor,
  pastes,
}: {
  line: string;
  column: number | undefined;
  showCursor: boolean;
  pastes: PastedTexts;
}) {
  // Chips (collapsed pastes) are shown by their label, `[pasted 1,523 lines]`.
  const shown = (text: string) => expandTabs(labelChips(text, pastes));
  // An empty Text takes no row in Ink; a space keeps blank lines of the input visible.
  if (column === undefined || !showCursor) return <Text>{line === '' ? ' ' : shown(line)}</Text>;
  // The whole grapheme under the cursor (👍🏽, not half of it); a space past the end.
  const atCursor = column < line.length ? line.slice(column, nextGrapheme(line, column)) : ' ';
  return (
    <Text>
      {shown(line.slice(0, column))}
      {cursorCell(shown(atCursor))}
      {shown(line.slice(column + atCursor.length))}
    </Text>
  );
}

function CompletionList({ completion, max }: { completion: CompletionState; max: number }) {
  const { matches, selected } = completion;
  // Command names are shown with their slash; argument words as they are.
  const mark = completion.kind === 'command' ? '/' : '';
  // Keep the selected entry in view when cycling past the end of the window.
  const start = Math.min(Math.max(0, selected - max + 1), Math.max(0, matches.length - max));
  const shown = matches.slice(start, start + max);
  const nameWidth = Math.max(...shown.map((entry) => entry.value.length)) + 1;
  return (
    <Box flexDirection="column" marginLeft={2}>
      {shown.map((entry, index) => {
        const isSelected = start + index === selected;
        const aliasList = entry.aliases ?? [];
        const aliases = aliasList.length > 0 ? ` (${aliasList.map((alias) => `/${alias}`).join(', ')})` : '';
        return (
          <Text key={entry.value} wrap="truncate-end">
            <Text color="cyan" inverse={isSelected}>
              {mark}
              {entry.value.padEnd(nameWidth)}
            </Text>{' '}
            <Text dimColor>
              {entry.summary ?? ''}
              {aliases}
            </Text>
          </Text>
        );
      })}
      {matches.length > shown.length && (
        <Text dimColor>… {matches.length - shown.length} more (tab to cycle)</Text>
      )}
    </Box>
  );
}

/** The input prompt: `›`, the (multi-line) text with its cursor, and the slash-command list. */
export function PromptInput({
  state,
  placeholder = PROMPT_PLACEHOLDER,
  isActive = true,
  maxCompletions = 8,
}: PromptInputProps) {
  const lines = state.text.split('\n');
  // Locate the cursor as (line, column) in the text.
  let cursorLine = 0;
  let offset = state.cursor;
  while (cursorLine < lines.length - 1 && offset > lines[cursorLine].length) {
    offset -= lines[cursorLine].length + 1;
    cursorLine++;
  }
  return (
    <Box flexDirection="column">
      <Box flexDirection="row">
        <Box width={2} flexShrink={0}>
          <Text color={isActive ? 'cyan' : 'gray'} bold>
            ›
          </Text>
        </Box>
        <Box flexDirection="column" flexGrow={1} flexShrink={1}>
          {state.text === '' ? (
            // One row, always: the live area's row budget counts on it.
            <Text wrap="truncate-end">
              {isActive && cursorCell(' ')}
              <Text dimColor>{placeholder}</Text>
            </Text>
          ) : (
            lines.map((line, index) => (
              <CursorLine
                // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity beyond their position
                key={index}
                line={line}
                column={index === cursorLine ? offset : undefined}
                showCursor={isActive}
                pastes={state.pastes}
              />
            ))
          )}
        </Box>
      </Box>
      {state.completion && <CompletionList completion={state.completion} max={maxCompletions} />}
    </Box>
  );
}
