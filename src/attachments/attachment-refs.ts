/** One `@path` in a message as typed. */
export interface AttachmentRef {
  /** The path as written, without the `@`, quotes or trailing punctuation. */
  path: string;
  /** Offset of the `@` in the text. */
  start: number;
  /** Offset just past the reference (and its closing quote). */
  end: number;
}

/** Punctuation that ends a sentence or clause after a path: `what is in @notes.md?`. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/**
 * The `@path` references in `text`: an `@` at the start or after whitespace, then a path up to the
 * next whitespace (trailing punctuation left out), or `@"a path with spaces"`. `me@host` is not one.
 */
export function findAttachmentRefs(text: string): AttachmentRef[] {
  const refs: AttachmentRef[] = [];
  const pattern = /(^|\s)@("([^"\n]+)"|\S+)/g;
  for (const match of text.matchAll(pattern)) {
    const start = (match.index ?? 0) + match[1].length;
    const quoted = match[3];
    if (quoted !== undefined) {
      refs.push({ path: quoted, start, end: start + 1 + match[2].length });
      continue;
    }
    const path = match[2].replace(TRAILING_PUNCTUATION, '');
    if (path !== '') refs.push({ path, start, end: start + 1 + path.length });
  }
  return refs;
}

/**
 * Whether a reference that names no file was surely meant as one, so it is refused as missing
 * rather than sent without the file: only path characters, and a file extension (`@notes.md`,
 * `@src/a.ts`) or an explicit start (`@./x`, `@../x`, `@~/x`, `@/x`). Anything else stays text:
 * `@john`, npm scopes (`@types/node`), decorators in pasted code (`@app.route('/')`).
 */
export function looksLikePath(path: string): boolean {
  if (!/^[\w.~/\\+-]+$/.test(path)) return false;
  return /\.[A-Za-z0-9]{1,10}$/.test(path) || /^(\.{1,2}|~)?\//.test(path);
}
