import { Text } from 'ink';

/** Props of {@link ConfirmPrompt}. */
export interface ConfirmPromptProps {
  /** The question, e.g. `Retry compaction?`. */
  question: string;
  /** The accepted answers as shown after the question. Default `y/n`. */
  choices?: string;
}

/** A one-line question in the dialog area, e.g. `? Retry compaction? (y/n)`. */
export function ConfirmPrompt({ question, choices = 'y/n' }: ConfirmPromptProps) {
  return (
    <Text>
      <Text color="yellow" bold>
        ?{' '}
      </Text>
      {question} <Text dimColor>({choices})</Text>
    </Text>
  );
}
