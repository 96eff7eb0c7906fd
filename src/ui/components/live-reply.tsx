import { Box, Text } from 'ink';
import { sanitizeTerminalText } from '../../text/sanitize.js';
import { isLowSurrogate } from '../../text/shorten.js';
import { expandTabs, wrapToRows } from '../../text/terminal-rows.js';
import { Spinner } from './spinner.js';

/** Props of {@link LiveReply}. */
export interface LiveReplyProps {
  /** The pending (not yet committed) part of the reply being streamed. */
  text: string;
  /** Reasoning streamed so far by a thinking model, shown dimmed until the reply text starts. */
  thinking?: string;
  /** What the reply waits for before its first byte, e.g. `loading m1…` (default: the reply itself). */
  waiting?: string;
  /** Terminal width in columns. */
  width: number;
  /** The most rows the live area may take, so it never outgrows the screen (which flickers). */
  maxRows: number;
}

/**
 * The end of `text` that can fill `maxRows` rows of `width` columns (a row holds at most `width`
 * characters): only that much is wrapped, so a frame costs the same for a 10 MB paragraph as for
 * a short one. The cut is moved to a line start when one is near, so the rows wrap as they will.
 */
export function visibleTail(text: string, width: number, maxRows: number): string {
  const chars = (Math.max(0, maxRows) + 1) * Math.max(1, width) * 2;
  if (text.length <= chars) return text;
  let start = text.length - chars;
  // Half of the tail still fills more than maxRows rows, so up to half may be skipped.
  const lineStart = text.indexOf('\n', start);
  if (lineStart !== -1 && lineStart - start < chars / 2) start = lineStart + 1;
  // Never start between the halves of a surrogate pair.
  else if (isLowSurrogate(text.charCodeAt(start))) start += 1;
  return text.slice(start);
}

/** The last `maxRows` rows of `text` wrapped at `width`: the newest output stays visible. */
export function lastRows(text: string, width: number, maxRows: number): string[] {
  const rows = wrapToRows(expandTabs(sanitizeTerminalText(visibleTail(text, width, maxRows))), width);
  return rows.slice(Math.max(0, rows.length - Math.max(0, maxRows)));
}

/**
 * The live part of the streaming reply: plain wrapped text (markdown is rendered only when a
 * block is committed), clipped to its last rows; a spinner while nothing has arrived yet.
 */
export function LiveReply({ text, thinking, waiting, width, maxRows }: LiveReplyProps) {
  if (text === '') {
    const thoughts = thinking ? lastRows(thinking, width - 2, maxRows - 1) : [];
    return (
      <Box flexDirection="column">
        {thoughts.length > 0 && (
          <Text dimColor italic>
            {thoughts.map((row) => `  ${row}`).join('\n')}
          </Text>
        )}
        {/* `thinking…` only once a model thinks: a model without thinking never does. */}
        <Spinner label={thinking ? 'thinking…' : (waiting ?? 'waiting for the reply…')} />
      </Box>
    );
  }
  // Pre-wrapped rows never exceed the width, so Ink's own wrapping adds no rows.
  return <Text>{lastRows(text, width, maxRows).join('\n')}</Text>;
}
