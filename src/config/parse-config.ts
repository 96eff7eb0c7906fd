import { type Document, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { ConfigError } from './config-error.js';
import { type Config, configSchema } from './schema.js';
import { configIssuesFrom } from './schema-issues.js';

/**
 * The first key written twice in one mapping, with where the repeat starts. yaml's own check
 * (`uniqueKeys`) compares every key with every other: minutes for a file of 50,000 keys.
 */
function firstDuplicateKey(doc: Document): { key: string; offset: number } | undefined {
  let found: { key: string; offset: number } | undefined;
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        const name = isScalar(key) ? key.value : key;
        if (seen.has(name) && isScalar(key) && key.range) {
          found = { key: String(name), offset: key.range[0] };
          return visit.BREAK;
        }
        seen.add(name);
      }
      return undefined;
    },
  });
  return found;
}

/**
 * Parses and validates config text; `shown` names the file in errors. An empty file gives the
 * defaults. Anything wrong throws a {@link ConfigError} (see `loadConfig`).
 */
export function parseConfigText(text: string, shown: string): Config {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const syntaxError = doc.errors[0];
  if (syntaxError) {
    // An error found at the end of the file (an unclosed `[`) is placed on its last line, not on
    // the empty line after the final newline, which the user cannot find in their editor.
    const at = Math.min(syntaxError.pos[0], Math.max(0, text.trimEnd().length - 1));
    const { line, col } = lines.linePos(at);
    throw new ConfigError(shown, [{ line, column: col, message: `invalid YAML: ${syntaxError.message}` }]);
  }
  const duplicate = firstDuplicateKey(doc);
  if (duplicate) {
    const { line, col } = lines.linePos(duplicate.offset);
    throw new ConfigError(shown, [{ line, column: col, message: `duplicate key "${duplicate.key}"` }]);
  }
  let data: unknown;
  try {
    data = doc.toJS() ?? {};
  } catch (error) {
    // e.g. more aliases than yaml allows (its defence against "billion laughs" files).
    throw new ConfigError(shown, [{ message: `invalid YAML: ${(error as Error).message}` }]);
  }
  const result = configSchema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  throw new ConfigError(shown, configIssuesFrom(result.error.issues, { doc, lines, schema: configSchema }));
}
