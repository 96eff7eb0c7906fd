/**
 * Large pastes collapsed into one chip in the prompt (`[pasted 1,523 lines]`): the editor's text
 * holds one private-use character per chip, and the pasted text is kept aside until the message
 * is sent (in full) or the user expands it. Laying out thousands of lines on every keystroke is
 * what made a 91 KB paste take seconds to appear and each key after it most of a second.
 */

/** A paste longer than this many lines is collapsed into a chip. */
export const COLLAPSE_LINES = 10;
/** A paste longer than this many characters is collapsed into a chip, however few its lines. */
export const COLLAPSE_CHARS = 2_000;

/** Pasted texts by their chip character. */
export type PastedTexts = ReadonlyMap<string, string>;

// Supplementary Private Use Area-B (U+100000…U+10FFFD): no font draws it and nobody types it,
// unlike the BMP private use area that Nerd Font icons live in.
const FIRST_CHIP = 0x10_0000;
const LAST_CHIP = 0x10_fffd;
const CHIP = /[\u{100000}-\u{10fffd}]/gu;

/** Whether pasted text is big enough to be shown as a chip. */
export function shouldCollapse(text: string): boolean {
  if (text.length > COLLAPSE_CHARS) return true;
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    if (++lines > COLLAPSE_LINES) return true;
  }
  return false;
}

/** The chip character for the `index`th paste of an editor (wraps after ~65,000 pastes). */
export function chipCharacter(index: number): string {
  return String.fromCodePoint(FIRST_CHIP + (index % (LAST_CHIP - FIRST_CHIP + 1)));
}

/** Whether `text` holds a chip. */
export function hasChip(text: string): boolean {
  CHIP.lastIndex = 0;
  return CHIP.test(text);
}

/** Removes chip characters from typed or pasted text, so only the editor creates chips. */
export function withoutChipCharacters(text: string): string {
  return hasChip(text) ? text.replace(CHIP, '') : text;
}

/** `[pasted 1,523 lines]`, or `[pasted 12,345 characters]` for one long line. */
export function chipLabel(pasted: string): string {
  let lines = 1;
  for (let index = pasted.indexOf('\n'); index !== -1; index = pasted.indexOf('\n', index + 1)) lines++;
  // A paste that ends with its last line's newline has no line after it (2,000 lines, not 2,001).
  if (pasted.endsWith('\n')) lines--;
  return lines > 1
    ? `[pasted ${lines.toLocaleString('en-US')} lines]`
    : `[pasted ${pasted.length.toLocaleString('en-US')} characters]`;
}

/** The text with every chip replaced by what was pasted: what is sent. */
export function expandChips(text: string, pastes: PastedTexts): string {
  return hasChip(text) ? text.replace(CHIP, (chip) => pastes.get(chip) ?? '') : text;
}

/** The text with every chip replaced by its label: what the prompt shows. */
export function labelChips(text: string, pastes: PastedTexts): string {
  return hasChip(text) ? text.replace(CHIP, (chip) => chipLabel(pastes.get(chip) ?? '')) : text;
}
