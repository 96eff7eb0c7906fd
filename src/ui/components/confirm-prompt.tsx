import { Box, Text } from 'ink';
import { showControlCharacters } from '../../text/sanitize.js';
import type { ToolPreview } from '../../tools/tool.js';
import { ToolPreviewBlock } from './tool-preview.js';
import { WrappedText } from './wrapped-text.js';

/** Props of {@link ConfirmPrompt}. */
export interface ConfirmPromptProps {
  /** The question, e.g. `Retry compaction?`. */
  question: string;
  /** The accepted answers as shown after the question (may quote a command). Default `y/n`. */
  choices?: string;
  /** A line under the question, e.g. how to answer once keys went to the prompt. */
  hint?: string;
  /** What the call asked about will do (e.g. a diff), shown under the question. */
  preview?: ToolPreview;
  /** Most rows the preview's lines may take. */
  maxPreviewLines?: number;
  /** Columns the question may fill; its continuation rows go under its text, not under `?`. */
  width?: number;
}

/**
 * A question in the dialog area, e.g. `? Retry compaction? (y/n)`. It may quote what a tool is
 * about to run, so control characters are shown, not removed or obeyed: the person answering
 * sees exactly what will run.
 */
export function ConfirmPrompt({
  question,
  choices = 'y/n',
  hint,
  preview,
  maxPreviewLines = 20,
  width = 80,
}: ConfirmPromptProps) {
  return (
    <Box flexDirection="column">
      <Box flexDirection="row">
        <Box width={2} flexShrink={0}>
          <Text color="yellow" bold>
            ?
          </Text>
        </Box>
        <WrappedText
          parts={[
            { text: `${showControlCharacters(question)} ` },
            { text: `(${showControlCharacters(choices)})`, dimColor: true },
          ]}
          width={width - 2}
        />
      </Box>
      {preview && <ToolPreviewBlock preview={preview} maxLines={maxPreviewLines} />}
      {hint && <Text dimColor>{`  ${hint}`}</Text>}
    </Box>
  );
}
