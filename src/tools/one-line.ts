/** Collapses whitespace (newlines included) and shortens to `maxChars` with an ellipsis. */
export function oneLine(text: string, maxChars = 80): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= maxChars) return collapsed;
  return `${collapsed.slice(0, Math.max(0, maxChars - 1)).trimEnd()}…`;
}
