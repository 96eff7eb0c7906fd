/**
 * The prompt's cursor: its cell in inverse video, written as the SGR codes themselves. Inverse
 * video is not colour, so the cursor stays visible when colours are off (NO_COLOR, FORCE_COLOR=0),
 * where chalk would drop `inverse` with the colours.
 */
export function cursorCell(text: string): string {
  return `\x1b[7m${text}\x1b[27m`;
}
