import type { ToolSchema } from '../backend/interfaces.js';
import { oneLine } from '../text/shorten.js';
import { matchTools } from './definition-budget.js';
import type { Tool } from './tool.js';

/** The name of the built-in tool that finds deferred tools. */
export const FIND_TOOLS = 'find_tools';

/** Most tools one `find_tools` call returns. */
const MAX_FOUND = 8;

/**
 * `find_tools`: offered only when tool definitions were deferred (tools.max_definitions_share).
 * Returns the deferred tools matching `query`, names and descriptions; `onFound` makes their full
 * schemas part of the next request.
 */
export function createFindTools(deps: {
  deferred: () => readonly ToolSchema[];
  onFound: (names: string[]) => void;
}): Tool<{ query?: string }> {
  return {
    name: FIND_TOOLS,
    description:
      'Finds more tools by keyword. Not every tool is listed, to save context; call this with what you need (e.g. "read file", "github issue") and the matching tools can be called from your next step.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Keywords for what the tool should do' } },
      required: ['query'],
    },
    keyArgument: (args) => String(args.query ?? ''),
    async run(args) {
      const deferred = deps.deferred();
      const found = matchTools(String(args.query ?? ''), deferred, MAX_FOUND);
      if (found.length === 0) {
        return {
          ok: true,
          output: `No tool matches "${args.query}". Other tools: ${deferred.map((s) => s.function.name).join(', ') || 'none'}.`,
          details: { found: 0 },
        };
      }
      deps.onFound(found.map((schema) => schema.function.name));
      const lines = found.map(
        (schema) => `- ${schema.function.name}: ${oneLine(schema.function.description, 200)}`,
      );
      return {
        ok: true,
        output: `Found ${found.length} tool${found.length === 1 ? '' : 's'}; call ${found.length === 1 ? 'it' : 'them'} by name from your next step:\n${lines.join('\n')}`,
        details: { found: found.length },
      };
    },
    summaryLine: (args, outcome) =>
      `${FIND_TOOLS}: "${oneLine(String(args.query ?? ''), 60)}" → ${Number(outcome.details?.found ?? 0)} found`,
  };
}
