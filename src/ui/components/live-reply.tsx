import { Box, Text } from 'ink';
import { sanitizeTerminalText } from '../../text/sanitize.js';
import { expandTabs, wrapToRows } from '../terminal-rows.js';
import { Spinner } from './spinner.js';

/** Props of {@link LiveReply}. */
export interface LiveReplyProps {
  /** The pending (not yet committed) part of the reply being streamed. */
  text: string;
  /** Reasoning streamed so far by a thinking model, shown dimmed until the reply text starts. */
  thinking?: string;
  /** Terminal width in columns. */
  width: number;
  /** The most rows the live area may take, so it never outgrows the screen (which flickers). */
  maxRows: number;
}

/** The last `maxRows` rows of `text` wrapped at `width`: the newest output stays visible. */
export function lastRows(text: string, width: number, maxRows: number): string[] {
  const rows = wrapToRows(expandTabs(sanitizeTerminalText(text)), width);
  return rows.slice(Math.max(0, rows.length - Math.max(0, maxRows)));
}

/**
 * The live part of the streaming reply: plain wrapped text (markdown is rendered only when a
 * block is committed), clipped to its last rows; a spinner while nothing has arrived yet.
 */
export function LiveReply({ text, thinking, width, maxRows }: LiveReplyProps) {
  if (text === '') {
    const thoughts = thinking ? lastRows(thinking, width - 2, maxRows - 1) : [];
    return (
      <Box flexDirection="column">
        {thoughts.length > 0 && (
          <Text dimColor italic>
            {thoughts.map((row) => `  ${row}`).join('\n')}
          </Text>
        )}
        <Spinner label="thinking…" />
      </Box>
    );
  }
  // Pre-wrapped rows never exceed the width, so Ink's own wrapping adds no rows.
  return <Text>{lastRows(text, width, maxRows).join('\n')}</Text>;
}
