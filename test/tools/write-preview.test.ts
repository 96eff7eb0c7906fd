import { describe, expect, it } from 'vitest';
import { showControlCharacters } from '../../src/text/sanitize.js';
import { existingFileOf, PREVIEW_MAX_LINES, previewWrite } from '../../src/tools/write-preview.js';

describe('previewWrite', () => {
  it('shows a new file as its lines', () => {
    expect(previewWrite({ kind: 'none' }, 'one\ntwo\n')).toEqual({
      title: 'new file, 2 lines, 8 bytes',
      lines: [
        { kind: 'add', text: 'one' },
        { kind: 'add', text: 'two' },
      ],
      more: 0,
    });
  });

  it('shows a changed file as a unified diff with 3 lines of context', () => {
    const old = `${Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
    const next = old.replace('line 5\n', 'line five\n').replace('line 10\n', 'line 10\nline 11\n');
    const preview = previewWrite({ kind: 'text', text: old }, next);
    expect(preview.title).toBe('changes 2 lines added, 1 line removed (11 lines, 82 bytes in all)');
    expect(preview.lines.map((l) => `${l.kind[0]} ${l.text}`)).toEqual([
      'h @@ -2,9 +2,10 @@',
      'c line 2',
      'c line 3',
      'c line 4',
      'r line 5',
      'a line five',
      'c line 6',
      'c line 7',
      'c line 8',
      'c line 9',
      'c line 10',
      'a line 11',
    ]);
  });

  it('says when nothing changes, and ignores jsdiff\'s "no newline" marker', () => {
    expect(previewWrite({ kind: 'text', text: 'a\n' }, 'a\n')).toMatchObject({ lines: [], more: 0 });
    const preview = previewWrite({ kind: 'text', text: 'a' }, 'b');
    expect(preview.lines.map((l) => l.kind)).toEqual(['hunk', 'remove', 'add']);
  });

  it('shows the new content instead of a diff past its edit limit', () => {
    const old = 'a\nb\nc\n';
    const preview = previewWrite({ kind: 'text', text: old }, 'x\ny\n', {
      maxEditLength: 1,
      timeout: 10_000,
    });
    expect(preview).toEqual({
      title: 'rewrites most of the file (3 lines now); its new content, 2 lines, 4 bytes',
      lines: [
        { kind: 'add', text: 'x' },
        { kind: 'add', text: 'y' },
      ],
      more: 0,
    });
  });

  it('counts what it leaves out beyond its cap', () => {
    const big = Array.from({ length: PREVIEW_MAX_LINES + 50 }, (_, i) => `l${i}`).join('\n');
    const preview = previewWrite({ kind: 'none' }, big);
    expect(preview.lines).toHaveLength(PREVIEW_MAX_LINES);
    expect(preview.more).toBe(50);
  });

  it('does not diff against a binary or oversized file', () => {
    expect(previewWrite(existingFileOf(Uint8Array.of(1, 0, 2)), 'x\n').title).toBe(
      'replaces a binary file (3 bytes) with 1 line, 2 bytes',
    );
    expect(previewWrite({ kind: 'too-large', bytes: 5_000_000 }, 'x\n').title).toBe(
      'replaces a file of 5,000,000 bytes (too large to compare) with 1 line, 2 bytes',
    );
    expect(existingFileOf(Buffer.from('héllo'))).toEqual({ kind: 'text', text: 'héllo' });
  });
});

describe('the preview of CRLF text', () => {
  it('keeps the CR of each line, which the prompt shows as ␍', () => {
    const preview = previewWrite({ kind: 'none' }, 'one\r\ntwo\r\n');
    expect(preview.title).toBe('new file, 2 lines, 10 bytes');
    expect(preview.lines.map((line) => showControlCharacters(line.text))).toEqual(['one␍', 'two␍']);
  });
});
