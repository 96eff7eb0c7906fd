import { showControlCharacters } from '../text/sanitize.js';
import type { PreviewLine, ToolPreview } from '../tools/tool.js';

/** Most lines a preview shows, however tall the terminal. */
export const PREVIEW_MAX_LINES = 20;

const MARK: Record<PreviewLine['kind'], string> = { add: '+', remove: '-', context: ' ', hunk: '' };

/** A preview as text lines: the title, at most `maxLines` marked lines, and `… N more lines` when cut. */
export interface PreviewText {
  title: string;
  lines: { kind: PreviewLine['kind']; text: string }[];
  more: string | undefined;
}

/**
 * What a tool call will do, as the chat's dialog and the line mode both show it: each line with
 * its diff mark, control characters shown, never obeyed (the text is the model's).
 */
export function previewText(preview: ToolPreview, maxLines: number): PreviewText {
  const shown = preview.lines.slice(0, Math.max(0, maxLines));
  const more = preview.more + preview.lines.length - shown.length;
  return {
    title: showControlCharacters(preview.title),
    lines: shown.map((line) => ({
      kind: line.kind,
      text: `${MARK[line.kind]}${showControlCharacters(line.text)}`,
    })),
    more: more > 0 ? `… ${more.toLocaleString('en-US')} more line${more === 1 ? '' : 's'}` : undefined,
  };
}
