import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { ConfigError } from './config-error.js';
import { type Config, configSchema } from './schema.js';
import { configIssuesFrom } from './schema-issues.js';

/** yaml's message, except that a repeated key is named (yaml only points at it). */
function syntaxMessage(error: YAMLError, text: string): string {
  const key = /^["']?([^"':\n]+)/.exec(text.slice(error.pos[0]))?.[1];
  if (error.code === 'DUPLICATE_KEY' && key) return `duplicate key "${key.trim()}"`;
  return `invalid YAML: ${error.message}`;
}

/**
 * Parses and validates config text; `shown` names the file in errors. An empty file gives the
 * defaults. Anything wrong throws a {@link ConfigError} (see `loadConfig`).
 */
export function parseConfigText(text: string, shown: string): Config {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntaxError = doc.errors[0];
  if (syntaxError) {
    const { line, col } = lines.linePos(syntaxError.pos[0]);
    throw new ConfigError(shown, [{ line, column: col, message: syntaxMessage(syntaxError, text) }]);
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
