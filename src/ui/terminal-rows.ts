/**
 * How plain text occupies terminal rows: display width of characters and word wrapping, so the
 * live area can be clipped to a number of rows before Ink lays it out.
 */

// East Asian wide and fullwidth ranges plus the common emoji blocks: two columns each.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3040-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

/** Combining marks, zero-width spaces/joiners and variation selectors take no column. */
function isZeroWidth(code: number): boolean {
  return (
    (code >= 0x300 && code <= 0x36f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0xfe00 && code <= 0xfe0f)
  );
}

/** Columns one code point takes in a terminal. */
export function charWidth(char: string): number {
  if (isZeroWidth(char.codePointAt(0) ?? 0)) return 0;
  return WIDE.test(char) ? 2 : 1;
}

/** Columns a string without control characters takes. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/** Tabs to spaces: Ink measures a tab as zero columns, the terminal as up to eight. */
export function expandTabs(text: string): string {
  return text.includes('\t') ? text.replace(/\t/g, '    ') : text;
}

/** Wraps one line into rows of at most `width` columns, breaking after spaces where possible. */
function wrapLine(line: string, width: number): string[] {
  const rows: string[] = [];
  let row = '';
  let rowWidth = 0;
  let lastSpace = -1;
  for (const char of line) {
    const columns = charWidth(char);
    while (rowWidth + columns > width && row !== '') {
      if (lastSpace > 0) {
        rows.push(row.slice(0, lastSpace));
        row = row.slice(lastSpace + 1);
      } else {
        rows.push(row);
        row = '';
      }
      rowWidth = displayWidth(row);
      lastSpace = -1;
    }
    row += char;
    rowWidth += columns;
    if (char === ' ') lastSpace = row.length - 1;
  }
  rows.push(row);
  return rows;
}

/** The rows `text` fills at `width` columns (each `\n` starts a row); tabs must be expanded first. */
export function wrapToRows(text: string, width: number): string[] {
  const columns = Math.max(1, Math.floor(width));
  return text.split('\n').flatMap((line) => wrapLine(line, columns));
}
