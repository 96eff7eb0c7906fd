/** `compaction.reserve.ratio`, `tools[1].name`: a path into a document as a user would write it. */
export function dottedKey(path: readonly PropertyKey[]): string {
  return path
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : `${index ? '.' : ''}${String(segment)}`,
    )
    .join('');
}
