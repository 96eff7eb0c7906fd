import type { Document, LineCounter } from 'yaml';
import type * as z from 'zod/mini';
import { dottedKey } from '../text/dotted-key.js';
import { suggest } from '../text/suggest.js';
import { type ConfigIssue, MAX_SHOWN_ISSUES } from './config-error.js';
import { knownKeysAt } from './known-keys.js';
import { keyPositions, type SourcePosition, valuePosition } from './yaml-position.js';

function located(position: SourcePosition | undefined, key: string, message: string): ConfigIssue {
  return { line: position?.line, column: position?.column, key: key || undefined, message };
}

/** `unknown key (did you mean "reserve"?)`, or the valid keys when nothing is close. */
function unknownKeyMessage(key: string, known: string[]): string {
  const nearest = suggest(key, known);
  if (nearest) return `unknown key (did you mean "${nearest}"?)`;
  return known.length ? `unknown key (valid keys: ${known.join(', ')})` : 'unknown key';
}

/** What the file holds where this YAML document was parsed from, for each schema issue. */
interface Source {
  doc: Document;
  lines: LineCounter;
  schema: z.ZodMiniType;
}

/**
 * Turns zod's issues into located config issues: one per unknown key (at the key, with a
 * suggestion) and one per bad value (at the value), in file order.
 */
export function configIssuesFrom(issues: readonly z.core.$ZodIssue[], source: Source): ConfigIssue[] {
  const { doc, lines, schema } = source;
  const found: ConfigIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, issue.path);
      const positionOf = keyPositions(doc, lines, issue.path);
      for (const [index, key] of issue.keys.entries()) {
        // Only the first issues are shown (MAX_SHOWN_ISSUES): spare the rest the suggestion search.
        const message = index < MAX_SHOWN_ISSUES ? unknownKeyMessage(key, known) : 'unknown key';
        found.push(located(positionOf(key), dottedKey([...issue.path, key]), message));
      }
      continue;
    }
    let message = issue.message;
    // A mistyped choice (a tool name, a think level) gets the same "did you mean" as a key.
    if (issue.code === 'invalid_value' && typeof issue.input === 'string') {
      const nearest = suggest(issue.input, issue.values.map(String));
      if (nearest) message += ` (did you mean "${nearest}"?)`;
    }
    found.push(located(valuePosition(doc, lines, issue.path), dottedKey(issue.path), message));
  }
  return found.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
