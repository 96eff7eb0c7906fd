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

/** Where the key `key` is written in the mapping at `parentPath`; the mapping's position if not found. */
export function keyPosition(
  doc: Document,
  lines: LineCounter,
  parentPath: readonly PropertyKey[],
  key: string,
): SourcePosition | undefined {
  const parent = parentPath.length === 0 ? doc.contents : doc.getIn(parentPath, true);
  if (isMap(parent)) {
    const pair = parent.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
    if (pair && isNode(pair.key) && pair.key.range) {
      const { line, col } = lines.linePos(pair.key.range[0]);
      return { line, column: col };
    }
  }
  return valuePosition(doc, lines, parentPath);
}
