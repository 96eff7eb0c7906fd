import { describeError } from '../text/describe-error.js';
import { dottedKey } from '../text/dotted-key.js';

/** Problems named of an answer that breaks the schema; the rest are counted. */
const SHOWN_PROBLEMS = 3;

/**
 * An error of the MCP client in words. The SDK says an answer that breaks the MCP schema as
 * `Invalid result for tools/list: ` followed by zod's issue list as JSON (dozens of lines):
 * that becomes `the server's answer to tools/list does not follow MCP: tools[1].name: expected
 * string, received number; …`. Anything else is {@link describeError}'s.
 */
export function mcpErrorText(error: unknown): string {
  const text = describeError(error);
  const invalid = /^Invalid result for (\S+): (\[[\s\S]*\])\s*$/.exec(text);
  if (!invalid) return text;
  let issues: unknown;
  try {
    issues = JSON.parse(invalid[2]);
  } catch {
    return `the server's answer to ${invalid[1]} does not follow MCP`;
  }
  const problems = (Array.isArray(issues) ? issues : []).map(
    (issue: { path?: unknown; message?: unknown }) => {
      const path = Array.isArray(issue?.path) ? dottedKey(issue.path as PropertyKey[]) : '';
      const message = String(issue?.message ?? 'invalid').replace(/^Invalid input: /, '');
      return path ? `${path}: ${message}` : message;
    },
  );
  const more = problems.length - SHOWN_PROBLEMS;
  const shown = problems.slice(0, SHOWN_PROBLEMS).join('; ');
  return `the server's answer to ${invalid[1]} does not follow MCP${shown ? `: ${shown}` : ''}${
    more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''
  }`;
}
