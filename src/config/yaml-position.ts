import { type Document, isMap, isNode, isScalar, type LineCounter } from 'yaml';

/** A 1-based line and column in the config file. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** The start offset of the node at `path`, or of its nearest ancestor present in the file. */
function offsetOf(doc: Document, path: readonly PropertyKey[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return node.range[0];
  }
  return undefined;
}

/** Where the value at `path` is written, e.g. the `high` of `ratio: high`. */
export function valuePosition(
  doc: Document,
  lines: LineCounter,
  path: readonly PropertyKey[],
): SourcePosition | undefined {
  const offset = offsetOf(doc, path);
  if (offset === undefined) return undefined;
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}

/**
 * Where each key of the mapping at `parentPath` is written: a lookup built once per mapping, so
 * locating every key of a file with thousands of unknown keys stays linear. Falls back to the
 * mapping's position for a key not found.
 */
export function keyPositions(
  doc: Document,
  lines: LineCounter,
  parentPath: readonly PropertyKey[],
): (key: string) => SourcePosition | undefined {
  const offsets = new Map<string, number>();
  const parent = parentPath.length === 0 ? doc.contents : doc.getIn(parentPath, true);
  if (isMap(parent)) {
    for (const item of parent.items) {
      if (!isScalar(item.key) || !item.key.range) continue;
      const name = String(item.key.value);
      if (!offsets.has(name)) offsets.set(name, item.key.range[0]);
    }
  }
  return (key) => {
    const offset = offsets.get(key);
    if (offset === undefined) return valuePosition(doc, lines, parentPath);
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
}
