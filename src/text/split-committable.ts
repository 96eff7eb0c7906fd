/**
 * Splits a streaming markdown reply into the part that can be rendered for good (committed to
 * `<Static>`) and the part still growing (shown live as plain text).
 */

/** The result of {@link splitCommittable}: `committed + pending` is always the input. */
export interface CommittableSplit {
  /** Ends right after the last blank line outside a code fence; '' if there is none. */
  committed: string;
  /** Everything after it. */
  pending: string;
}

/** An open code fence: its character, its length and the indentation of its opening line. */
interface OpenFence {
  char: '`' | '~';
  length: number;
  indent: number;
}

const FENCE_LINE = /^( *)(`{3,}|~{3,})(.*)$/;

/**
 * Fence openings are accepted at any indentation (fences nested in list items are common in model
 * output); treating a line as a fence when unsure only delays a commit, never splits a block.
 */
function openingFence(line: string): OpenFence | undefined {
  const match = FENCE_LINE.exec(line);
  if (!match) return undefined;
  const marker = match[2];
  const char = marker[0] as '`' | '~';
  // CommonMark: a backtick fence's info string may not contain backticks (that is inline code).
  if (char === '`' && match[3].includes('`')) return undefined;
  return { char, length: marker.length, indent: match[1].length };
}

function closesFence(line: string, fence: OpenFence): boolean {
  const match = FENCE_LINE.exec(line);
  if (!match) return false;
  if (match[3].trim() !== '') return false; // a closing fence has no info string
  const marker = match[2];
  return marker[0] === fence.char && marker.length >= fence.length && match[1].length <= fence.indent + 3;
}

/**
 * Returns the committed part (up to and including the last complete blank line that is outside a
 * ``` or ~~~ fence) and the pending rest. Pure; the commit point only moves forward as text grows.
 */
export function splitCommittable(text: string): CommittableSplit {
  let fence: OpenFence | undefined;
  let commitEnd = 0;
  let lineStart = 0;
  // Only complete lines (terminated by \n) count: the last, unterminated one may still change.
  for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', lineStart)) {
    const line = text.slice(lineStart, newline);
    if (fence) {
      if (closesFence(line, fence)) fence = undefined;
    } else if (line.trim() === '') {
      commitEnd = newline + 1;
    } else {
      fence = openingFence(line);
    }
    lineStart = newline + 1;
  }
  return { committed: text.slice(0, commitEnd), pending: text.slice(commitEnd) };
}
