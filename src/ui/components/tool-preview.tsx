import { Box, Text } from 'ink';
import type { PreviewLine, ToolPreview } from '../../tools/tool.js';
import { previewText } from '../tool-preview-lines.js';

/** Props of {@link ToolPreviewBlock}. */
export interface ToolPreviewProps {
  preview: ToolPreview;
  /** Most rows the preview's lines may take; the rest are counted on a last line. */
  maxLines: number;
}

const COLOR: Partial<Record<PreviewLine['kind'], string>> = { add: 'green', remove: 'red', hunk: 'cyan' };

/**
 * What a tool call will do, under its confirmation question: a title, then the first lines (a
 * diff's `+`/`-` lines coloured), each cut to one row, then `… N more lines`. The text is the
 * model's: control characters are shown, never obeyed, as in the question.
 */
export function ToolPreviewBlock({ preview, maxLines }: ToolPreviewProps) {
  const text = previewText(preview, maxLines);
  return (
    <Box flexDirection="column" paddingLeft={2}>
      <Text dimColor>{text.title}</Text>
      {text.lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines never move; the index is their identity.
        <Text key={index} color={COLOR[line.kind]} wrap="truncate-end">
          {line.text}
        </Text>
      ))}
      {text.more !== undefined && <Text dimColor>{text.more}</Text>}
    </Box>
  );
}

/** Rows {@link ToolPreviewBlock} takes with at most `maxLines` lines. */
export function toolPreviewRows(preview: ToolPreview, maxLines: number): number {
  const shown = Math.min(preview.lines.length, Math.max(0, maxLines));
  const more = preview.more + preview.lines.length - shown;
  return 1 + shown + (more > 0 ? 1 : 0);
}
