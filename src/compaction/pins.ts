/** Opens the section of the system message that carries the user's pinned notes (`/pin`). */
export const PINS_HEADER = '[Notes the user pinned: keep them in mind, word for word]';
/** Closes it. */
export const PINS_FOOTER = '[End of the pinned notes]';

/**
 * The pinned notes as one delimited section of the system message (after the instruction files,
 * before any summary), numbered as `/pins` lists them; verbatim, never compacted. Undefined when
 * there are none. The one place defining the format.
 */
export function renderPinsSection(pins: readonly string[]): string | undefined {
  if (!pins.length) return undefined;
  return `${PINS_HEADER}\n${pins.map((pin, i) => `${i + 1}. ${pin}`).join('\n')}\n${PINS_FOOTER}`;
}
