import { Box, Text } from 'ink';
import { sanitizeTerminalText } from '../../text/sanitize.js';
import { expandTabs } from '../../text/terminal-rows.js';

/** Props of {@link QueuedInputs}. */
export interface QueuedInputsProps {
  /** What the user typed while ochat was busy, oldest first (`id`: which submission it is). */
  inputs: readonly { id: number; text: string }[];
}

/** Most queued inputs listed one by one; the rest are counted. */
export const QUEUED_SHOWN = 5;

/** Says how a queued message is taken back before it is sent. */
export const QUEUED_HINT = 'queued · esc on an empty prompt takes the last one back';

/** Rows {@link QueuedInputs} takes for `count` queued inputs (for the live area's row budget). */
export function queuedRows(count: number): number {
  if (count === 0) return 0;
  return Math.min(count, QUEUED_SHOWN) + (count > QUEUED_SHOWN ? 1 : 0) + 1;
}

/** One row of a queued input: its first line, with `…` when there is more. */
function firstLine(text: string): string {
  const lines = text.trim().split('\n');
  return expandTabs(sanitizeTerminalText(lines[0] ?? '')) + (lines.length > 1 ? ' …' : '');
}

/**
 * Messages and commands typed while a reply streams (or a question is open), dimmed and in order
 * under the live reply: nothing typed is ever out of sight while it waits.
 */
export function QueuedInputs({ inputs }: QueuedInputsProps) {
  if (inputs.length === 0) return null;
  const hidden = inputs.length - QUEUED_SHOWN;
  return (
    <Box flexDirection="column">
      {inputs.slice(0, QUEUED_SHOWN).map(({ id, text }) => (
        <Text key={id} dimColor wrap="truncate-end">
          {`› ${firstLine(text)}`}
        </Text>
      ))}
      {hidden > 0 && <Text dimColor>{`  … and ${hidden} more`}</Text>}
      <Text dimColor italic>
        {`  ${QUEUED_HINT}`}
      </Text>
    </Box>
  );
}
