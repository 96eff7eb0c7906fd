import { Box, Text } from 'ink';
import { showControlCharacters } from '../../text/sanitize.js';

/** Props of {@link ConfirmPrompt}. */
export interface ConfirmPromptProps {
  /** The question, e.g. `Retry compaction?`. */
  question: string;
  /** The accepted answers as shown after the question (may quote a command). Default `y/n`. */
  choices?: string;
  /** A line under the question, e.g. how to answer once keys went to the prompt. */
  hint?: string;
}

/**
 * A question in the dialog area, e.g. `? Retry compaction? (y/n)`. It may quote what a tool is
 * about to run, so control characters are shown, not removed or obeyed: the person answering
 * sees exactly what will run.
 */
export function ConfirmPrompt({ question, choices = 'y/n', hint }: ConfirmPromptProps) {
  return (
    <Box flexDirection="column">
      <Text>
        <Text color="yellow" bold>
          ?{' '}
        </Text>
        {showControlCharacters(question)} <Text dimColor>({showControlCharacters(choices)})</Text>
      </Text>
      {hint && <Text dimColor>{`  ${hint}`}</Text>}
    </Box>
  );
}
