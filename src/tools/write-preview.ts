/**
 * What `write_file` will do, shown before it runs: the first lines of a new file, or a unified
 * diff (jsdiff's `structuredPatch`, 3 lines of context) of a changed one.
 */
import { structuredPatch } from 'diff';
import { looksBinary } from '../files/binary-content.js';
import { plural, splitLines } from './text-lines.js';
import type { PreviewLine, ToolPreview } from './tool.js';

/** Lines kept in a preview; the rest are counted. The screen may show fewer. */
export const PREVIEW_MAX_LINES = 200;

/**
 * Bounds on the diff: an unbounded one of a rewritten 20,000-line file runs for minutes on the UI
 * thread, and past a few hundred changed lines a diff is no easier to read than the new content.
 */
const DIFF_LIMITS = { maxEditLength: 1000, timeout: 250 };

/** The current content of the file to be written, as far as a preview needs it. */
export type ExistingFile =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'binary'; bytes: number }
  | { kind: 'too-large'; bytes: number };

/** Reads what a preview needs from a file's bytes: its text, or that it is binary. */
export function existingFileOf(content: Uint8Array): ExistingFile {
  if (looksBinary(content)) return { kind: 'binary', bytes: content.length };
  return { kind: 'text', text: Buffer.from(content).toString('utf8') };
}

/** The lines of a text as the preview shows them: split at `\n` only, so a CRLF line shows its CR. */
function shownLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The preview of writing `next` over `existing`. */
export function previewWrite(
  existing: ExistingFile,
  next: string,
  limits: { maxEditLength: number; timeout: number } = DIFF_LIMITS,
): ToolPreview {
  const nextLines = splitLines(next);
  const size = `${plural(nextLines.length, 'line')}, ${plural(Buffer.byteLength(next, 'utf8'), 'byte')}`;
  if (existing.kind !== 'text') {
    const title =
      existing.kind === 'none'
        ? `new file, ${size}`
        : existing.kind === 'binary'
          ? `replaces a binary file (${plural(existing.bytes, 'byte')}) with ${size}`
          : `replaces a file of ${plural(existing.bytes, 'byte')} (too large to compare) with ${size}`;
    return capped(
      title,
      shownLines(next).map((text) => ({ kind: 'add', text })),
    );
  }
  if (existing.text === next)
    return { title: 'no change: the file already has this content', lines: [], more: 0 };
  const patch = structuredPatch('', '', existing.text, next, '', '', { context: 3, ...limits });
  if (!patch) {
    return capped(
      `rewrites most of the file (${plural(splitLines(existing.text).length, 'line')} now); its new content, ${size}`,
      shownLines(next).map((text) => ({ kind: 'add', text })),
    );
  }
  const lines: PreviewLine[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    lines.push({
      kind: 'hunk',
      text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    });
    for (const line of hunk.lines) {
      // jsdiff marks a missing final newline with a line of its own.
      if (line.startsWith('\\')) continue;
      const kind = line[0] === '+' ? 'add' : line[0] === '-' ? 'remove' : 'context';
      if (kind === 'add') added++;
      if (kind === 'remove') removed++;
      lines.push({ kind, text: line.slice(1) });
    }
  }
  return capped(
    `changes ${plural(added, 'line')} added, ${plural(removed, 'line')} removed (${size} in all)`,
    lines,
  );
}

function capped(title: string, lines: PreviewLine[]): ToolPreview {
  return {
    title,
    lines: lines.slice(0, PREVIEW_MAX_LINES),
    more: Math.max(0, lines.length - PREVIEW_MAX_LINES),
  };
}
